// On Linux, the URLSession methods Apple's SDK has and swift-corelibs-foundation lacks, with
// Apple's exact signatures, so that a module importing Foundation, this and Gramophone meets
// the same overloads as an app on macOS, iOS, tvOS or watchOS: a Gramophone extension that
// clashes with the SDK fails this package's build on Linux as it would fail an app on Apple
// platforms (`ambiguous use of 'data'`). On Apple platforms this module is empty; the SDK's own
// methods are there. Not a product. The list is kept beside the `#if`s in
// Sources/Gramophone/Gramophone.docc/Platforms.md: add to both when Gramophone declares another
// method on a Foundation type.
//
// Only the signatures are Apple's; the bodies forward to what Linux Foundation has, so the
// calls work if run. Checked against FoundationNetworking of Swift 6.3.1, which has
// `data(for:delegate:)`, `data(from:delegate:)`, `upload(for:from:delegate:)`,
// `upload(for:fromFile:delegate:)`, `download(for:delegate:)`, `download(from:delegate:)`
// (each `delegate:` defaulted), every completion-handler task method and `webSocketTask(with:)`,
// and none of the declarations below. Apple's SDK has no delegate-less `download(for:)` or
// `download(from:)` (only the `delegate:` forms, as Linux), so neither is stood in for.

#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking

extension URLSession {
    /// Apple: `func data(for request: URLRequest) async throws -> (Data, URLResponse)`,
    /// iOS 13 / macOS 10.15 / tvOS 13 / watchOS 6
    /// (https://developer.apple.com/documentation/foundation/urlsession/data(for:)).
    public func data(for request: URLRequest) async throws -> (Data, URLResponse) {
        try await data(for: request, delegate: nil)
    }

    /// Apple: `func data(from url: URL) async throws -> (Data, URLResponse)`, iOS 13 / macOS 10.15
    /// (https://developer.apple.com/documentation/foundation/urlsession/data(from:)).
    public func data(from url: URL) async throws -> (Data, URLResponse) {
        try await data(from: url, delegate: nil)
    }

    /// Apple: `func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse)`,
    /// iOS 13 / macOS 10.15 (https://developer.apple.com/documentation/foundation/urlsession/upload(for:from:)).
    public func upload(for request: URLRequest, from bodyData: Data) async throws -> (Data, URLResponse) {
        try await upload(for: request, from: bodyData, delegate: nil)
    }

    /// Apple: `func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, URLResponse)`,
    /// iOS 13 / macOS 10.15 (https://developer.apple.com/documentation/foundation/urlsession/upload(for:fromfile:)).
    public func upload(for request: URLRequest, fromFile fileURL: URL) async throws -> (Data, URLResponse) {
        try await upload(for: request, fromFile: fileURL, delegate: nil)
    }

    /// Apple: `func bytes(for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (URLSession.AsyncBytes, URLResponse)`,
    /// iOS 15 / macOS 12 (https://developer.apple.com/documentation/foundation/urlsession/bytes(for:delegate:)).
    public func bytes(for request: URLRequest, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (AsyncBytes, URLResponse) {
        let (body, response) = try await data(for: request, delegate: delegate)
        return (AsyncBytes(body: body), response)
    }

    /// Apple: `func bytes(from url: URL, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (URLSession.AsyncBytes, URLResponse)`,
    /// iOS 15 / macOS 12 (https://developer.apple.com/documentation/foundation/urlsession/bytes(from:delegate:)).
    public func bytes(from url: URL, delegate: (any URLSessionTaskDelegate)? = nil) async throws -> (AsyncBytes, URLResponse) {
        try await bytes(for: URLRequest(url: url), delegate: delegate)
    }

    /// Apple: `struct AsyncBytes`, an `AsyncSequence` of `UInt8` with a `task`, iOS 15 / macOS 12
    /// (https://developer.apple.com/documentation/foundation/urlsession/asyncbytes). Here the
    /// body arrives whole: the stand-in's shape is Apple's, not its streaming.
    public struct AsyncBytes: AsyncSequence, Sendable {
        public typealias Element = UInt8
        let body: Data

        public struct Iterator: AsyncIteratorProtocol {
            var bytes: Data.Iterator
            public mutating func next() async throws -> UInt8? { bytes.next() }
        }

        public func makeAsyncIterator() -> Iterator { Iterator(bytes: body.makeIterator()) }
    }
}
#endif
