// A child process for LaunchEnvironmentTests: an "app" that calls
// `Turntable.installFromLaunchEnvironment()` first thing, as an app under UI test does, then
// fetches each URL given on the command line through `URLSession.shared` and prints
// `STATUS BODY` per line (or `ERROR code`). With `PROBE_PIECES` set, it fetches through a data
// task with a delegate instead and prints `STATUS N pieces BODY` (or `ERROR code after N pieces`),
// N being how many times the delegate received data. Not a product.
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Counts the pieces a data task's body arrives in.
final class PieceCounter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // Unchecked: written only on the session's serial delegate queue, read after completion.
    var pieces: [Data] = []
    var response: HTTPURLResponse?
    var error: (any Error)?
    let done = DispatchSemaphore(value: 0)

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse, completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        self.response = response as? HTTPURLResponse
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) { pieces.append(data) }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        self.error = error
        done.signal()
    }
}

do {
    let installed = try Turntable.installFromLaunchEnvironment()
    print(installed == nil ? "installed: no" : "installed: yes")
} catch {
    print("install failed: \(error)")
    exit(2)
}

let countsPieces = ProcessInfo.processInfo.environment["PROBE_PIECES"] != nil
for argument in CommandLine.arguments.dropFirst() {
    guard let url = URL(string: argument) else { continue }
    if countsPieces {
        let counter = PieceCounter()
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: HTTPStubber.shared.configuration(), delegate: counter, delegateQueue: queue)
        session.dataTask(with: url).resume()
        counter.done.wait()
        session.finishTasksAndInvalidate()
        let body = String(decoding: counter.pieces.reduce(Data(), +), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
        if let error = counter.error {
            print("ERROR \((error as NSError).code) after \(counter.pieces.count) pieces")
        } else {
            print("\(counter.response?.statusCode ?? 0) \(counter.pieces.count) pieces \(body)")
        }
        continue
    }
    do {
        let (data, response) = try await URLSession.shared.data(from: url)
        print("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: " "))")
    } catch {
        print("ERROR \((error as NSError).code)")
    }
}
