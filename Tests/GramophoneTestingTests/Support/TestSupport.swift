import Foundation
import GramophoneTestSupport
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The example API the vinyls in this target were written for.
enum ExampleAPI {
    static func baseURL() throws -> URL {
        try #require(URL(string: "https://api.example.com"))
    }
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder() throws -> URL { try makeTemporaryFolder(prefix: "gramophone-testing") }
