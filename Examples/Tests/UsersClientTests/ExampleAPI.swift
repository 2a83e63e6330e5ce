import Foundation
import Testing

/// The example API's address; nothing listens there: every answer comes from a vinyl.
enum ExampleAPI {
    static func baseURL() throws -> URL {
        try #require(URL(string: "https://api.example.com"))
    }
}
