import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one routine by which both URLProtocol classes (the Turntable's and the stubber's) hand
/// an answer to the URL loading system, so every URLSession path delivers the same bytes.
enum URLProtocolDelivery {
    /// Tells `urlProtocol`'s client the outcome: the response, the body in `chunks` (each
    /// after its delay), then the end. Called from the loading task; says nothing more once
    /// that task is cancelled by `stopLoading`.
    static func deliver(_ outcome: Result<(HTTPURLResponse, Data), any Error>, to urlProtocol: URLProtocol,
                        cachePolicy: URLCache.StoragePolicy = .notAllowed, chunks: [(delay: TimeInterval, size: Int)]) async {
        let client = urlProtocol.client
        switch outcome {
        case .failure(let error):
            guard !Task.isCancelled else { return }
            client?.urlProtocol(urlProtocol, didFailWithError: error)
        case .success(let (response, body)):
            guard !Task.isCancelled else { return }
            client?.urlProtocol(urlProtocol, didReceive: decoded(response, bodyLength: body.count), cacheStoragePolicy: cachePolicy)
            #if canImport(FoundationNetworking)
            // Linux Foundation keeps only the last `didLoad` for completion-handler and async
            // tasks (it stores rather than appends), so the body goes in one piece there, once
            // the time its chunks would take has passed (docs/PLATFORMS.md).
            guard await wait(chunks.reduce(0) { $0 + $1.delay }) else { return }
            if !body.isEmpty { client?.urlProtocol(urlProtocol, didLoad: body) }
            #else
            var offset = body.startIndex
            for chunk in chunks {
                guard await wait(chunk.delay) else { return }
                let end = body.index(offset, offsetBy: min(chunk.size, body.endIndex - offset))
                client?.urlProtocol(urlProtocol, didLoad: body.subdata(in: offset..<end))
                offset = end
            }
            #endif
            guard !Task.isCancelled else { return }
            client?.urlProtocolDidFinishLoading(urlProtocol)
        }
    }

    /// `byteCount` bytes in pieces of `size`, all due at once.
    static func immediateChunks(byteCount: Int, size: Int) -> [(delay: TimeInterval, size: Int)] {
        stride(from: 0, to: byteCount, by: max(1, size)).map { (0, min(size, byteCount - $0)) }
    }

    /// Sleeps; false when the load was stopped meanwhile (the client must hear nothing more).
    static func wait(_ seconds: TimeInterval) async -> Bool {
        if seconds > 0 {
            do { try await Task.sleep(nanoseconds: UInt64(seconds * 1_000_000_000)) } catch { return false }
        }
        return !Task.isCancelled
    }

    /// The response without `Content-Encoding`: a vinyl holds bodies as the client saw them
    /// (already decoded), so nothing on this path may decode them a second time.
    static func decoded(_ response: HTTPURLResponse, bodyLength: Int) -> HTTPURLResponse {
        var fields: [String: String] = [:]
        var changed = false
        for case let (name as String, value as String) in response.allHeaderFields {
            switch name.lowercased() {
            case "content-encoding": changed = true
            case "content-length": fields[name] = String(bodyLength); changed = changed || value != String(bodyLength)
            default: fields[name] = value
            }
        }
        guard changed, let url = response.url else { return response }
        return HTTPURLResponse(url: url, statusCode: response.statusCode, httpVersion: "HTTP/1.1", headerFields: fields) ?? response
    }
}
