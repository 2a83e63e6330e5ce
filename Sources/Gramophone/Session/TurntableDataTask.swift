import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The data task a Turntable hands out: nothing happens before `resume()`, as with URLSession.
final class TurntableDataTask: URLSessionDataTask, @unchecked Sendable {
    private struct State {
        var state: URLSessionTask.State = .suspended
        var response: URLResponse?
        var error: (any Error)?
        var completion: (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)?
    }

    private let turntable: Turntable
    private let request: URLRequest
    private let identifier: Int
    private let lockedState: Locked<State>
    private static let counter = Locked(0)

    init(turntable: Turntable, request: URLRequest, completionHandler: @escaping @Sendable (Data?, URLResponse?, (any Error)?) -> Void) {
        self.turntable = turntable
        self.request = request
        identifier = Self.counter.withLock { $0 += 1; return $0 }
        lockedState = Locked(State(completion: completionHandler))
        super.init()
    }

    override var originalRequest: URLRequest? { request }
    override var currentRequest: URLRequest? { request }
    override var response: URLResponse? { lockedState.withLock { $0.response } }
    override var error: (any Error)? { lockedState.withLock { $0.error } }
    override var state: URLSessionTask.State { lockedState.withLock { $0.state } }
    override var taskIdentifier: Int { identifier }

    override func resume() {
        let start = lockedState.withLock { state -> Bool in
            guard state.state == .suspended else { return false }
            state.state = .running
            return true
        }
        guard start else { return }
        let turntable = turntable
        let request = request
        Task {
            let result: Result<(HTTPURLResponse, Data), any Error>
            do {
                result = await turntable.answer(try Track.Request(request)).outcome
            } catch {
                result = .failure(error)
            }
            self.finish(result)
        }
    }

    override func cancel() {
        finish(.failure(URLError(.cancelled, userInfo: [NSURLErrorFailingURLErrorKey: request.url as Any])))
    }

    private func finish(_ result: Result<(HTTPURLResponse, Data), any Error>) {
        let completion = lockedState.withLock { state -> (@Sendable (Data?, URLResponse?, (any Error)?) -> Void)? in
            guard state.state != .completed else { return nil }
            state.state = .completed
            switch result {
            case .success(let (response, _)): state.response = response
            case .failure(let error): state.error = error
            }
            defer { state.completion = nil }
            return state.completion
        }
        guard let completion else { return }
        switch result {
        case .success(let (response, data)): completion(data, response, nil)
        case .failure(let error): completion(nil, nil, error)
        }
    }
}
