import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the URL loading system knows about the task a URLProtocol loads and does not put on the
/// request it hands over: an upload task's body, the session's configuration (its
/// `httpAdditionalHeaders` and cookies), whether the task reports each piece to a delegate, and
/// whether it is a download.
///
/// On Apple platforms the request already carries the configuration's headers and cookies, and
/// pieces reach every kind of task, so only the task's kind is read here. Linux Foundation keeps
/// the rest in internal properties of the task and its session; they are read by reflection
/// (`Mirror`), each with a safe answer when the layout is not what this file expects (the tests
/// in URLProtocol/LoadingTaskTests.swift fail then, so a toolchain that changes it is noticed).
/// Gramophone.docc/Platforms.md lists what each part is for.
struct LoadingTask {
    /// The body the task sends, when the request itself carries none; nil when there is none,
    /// or it cannot be read (`isBodyUnreadable`).
    var body: Data?
    /// The task sends a body that does not reach the URLProtocol (an upload task on Apple
    /// platforms, a streamed upload on Linux): recording it would record a request nobody sent.
    var isBodyUnreadable = false
    /// The configuration of the session the task belongs to, where it can be read (Linux).
    private var configuration: URLSessionConfiguration?
    #if canImport(FoundationNetworking)
    /// The task and its session, where known: what `receivesPieces` asks Foundation about.
    private var task: URLSessionTask?
    private var session: URLSession?

    /// Someone could hear the body's pieces: a delegate of the task's own, the session's, or one
    /// given to makeURLSession(). Linux answers a task's `delegate` with the session's when the
    /// task has none. Cheap: nothing asks Foundation.
    var mayHearPieces: Bool {
        guard let task, let session else { return false }
        let ours = session.delegate as? TaskFirstDelegate
        if let own = task.delegate, own !== ours { return true }
        return (ours.map { $0.delegate } ?? session.delegate) != nil
    }

    /// The task hears each piece of the body as it arrives (a delegate data task); false for
    /// completion-handler and async tasks on Linux, which keep only the last piece. Read from
    /// the session's task registry by reflection each time it is asked (its costliest part): ask
    /// only when the body may come in more than one piece, and on the session's queue.
    var receivesPieces: Bool {
        guard mayHearPieces, let task, let session else { return false }
        return Self.callsDelegate(task, in: session)
    }
    #else
    /// The task hears each piece of the body as it arrives: every kind of task on Apple platforms.
    var receivesPieces: Bool { true }
    var mayHearPieces: Bool { true }
    #endif
    /// A download task: Linux Foundation cannot finish one loaded by a URLProtocol.
    var isDownload = false
    /// A WebSocket's opening handshake (a `URLSessionWebSocketTask`, or a request asking to
    /// upgrade): a URLProtocol sees at most the handshake, never the messages.
    var isWebSocket = false

    /// - Parameters:
    ///   - session: on Linux, the session the task belongs to when the caller knows it (a
    ///     `makeURLSession()` session): the task's fields are then read only for an upload
    ///     task's body, not for every request.
    ///   - configuration: that session's configuration, kept when it was made: Linux builds a
    ///     new configuration object each time `URLSession.configuration` is read.
    init(_ task: URLSessionTask?, request: URLRequest, session known: URLSession? = nil, configuration knownConfiguration: URLSessionConfiguration? = nil) {
        isWebSocket = Self.opensWebSocket(task, request)
        guard let task else { return }
        isDownload = task is URLSessionDownloadTask
        let requestHasNoBody = request.httpBody == nil && request.httpBodyStream == nil
        #if canImport(FoundationNetworking)
        let readsBody = requestHasNoBody && task is URLSessionUploadTask
        // Reflection walks every stored property of the task: only when something is unknown.
        let fields = known == nil || readsBody ? Self.fields(of: task) : [:]
        self.task = task
        if let session = known ?? fields["session"].flatMap(Self.unwrapped) as? URLSession {
            configuration = knownConfiguration ?? session.configuration
            self.session = session
        }
        if readsBody {
            switch fields["knownBody"].flatMap(Self.unwrapped).map(Self.bodyCase) {
            case .some(("data", let value as DispatchData)): body = Data(value)
            case .some(("file", let value as URL)):
                if let data = try? Data(contentsOf: value) { body = data } else { isBodyUnreadable = true }
            case .some(("stream", let value as InputStream)): body = Track.Request.drain(value)
            case .some(("none", _)): break
            default: isBodyUnreadable = true
            }
        }
        #else
        // Apple hands an upload task's body to no URLProtocol; what it sends is unknown here.
        if requestHasNoBody, task is URLSessionUploadTask { isBodyUnreadable = true }
        #endif
    }

    /// The request the session sends: the configuration's additional headers that the request
    /// does not set itself, its cookies for the URL when the session sends cookies, and the body.
    func completed(_ request: URLRequest) -> URLRequest {
        var request = request
        if let body, !body.isEmpty { request.httpBody = body }
        #if canImport(FoundationNetworking)
        // Linux adds these after the URLProtocol (in its own HTTP protocol); Apple before it.
        guard let configuration else { return request }
        for case let (name as String, value as String) in configuration.httpAdditionalHeaders ?? [:]
        where request.value(forHTTPHeaderField: name) == nil {
            request.setValue(value, forHTTPHeaderField: name)
        }
        // An empty storage is told by `cookies`, which is cheaper than `cookies(for:)`: it reads no URL.
        if configuration.httpShouldSetCookies, request.httpShouldHandleCookies, request.value(forHTTPHeaderField: "Cookie") == nil,
            let url = request.url, let storage = configuration.httpCookieStorage, storage.cookies?.isEmpty == false,
            let cookies = storage.cookies(for: url), !cookies.isEmpty
        {
            for (name, value) in HTTPCookie.requestHeaderFields(with: cookies) { request.setValue(value, forHTTPHeaderField: name) }
        }
        #endif
        return request
    }

    /// Where the cookies of live responses go, as the session would keep them: on Linux, where
    /// the URLProtocol stands in for the session's HTTP protocol; nil where the session does it
    /// (Apple platforms) or sends no cookies.
    var cookieJar: CookieJar? {
        #if canImport(FoundationNetworking)
        guard let configuration, configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage else { return nil }
        return CookieJar(storage: Unchecked(storage))
        #else
        return nil
        #endif
    }

    /// Why this load cannot go ahead, as the error the task completes with; nil when it can.
    /// `recording`: a request the Turntable does not answer would go to the network and be recorded.
    func refusal(for request: URLRequest, recording: Bool) -> URLError? {
        func refused(_ code: URLError.Code, _ description: String) -> URLError {
            var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
            userInfo[NSURLErrorFailingURLErrorKey] = request.url
            return URLError(code, userInfo: userInfo)
        }
        #if canImport(FoundationNetworking)
        if isDownload {
            // Foundation finishes a download only from its own protocol (it reads a file URL that
            // only its protocol sets, and traps without it): complete with a reason, never crash.
            return refused(
                .unsupportedURL,
                "Gramophone cannot answer a download task through a URLSession on Linux: Foundation finishes download tasks only from its own network protocol and crashes otherwise. Use a data task (data(for:), dataTask(with:)) and write the data to a file, or the Turntable's own download(for:) and downloadTask(with:) (Gramophone.docc/Platforms.md)"
            )
        }
        #endif
        if isWebSocket {
            return refused(
                .unsupportedURL,
                "Gramophone cannot answer a WebSocket through a URLSession (makeURLSession(), HTTPStubber): a URLProtocol sees at most the opening handshake, never the messages. Open the socket through the injected NetworkSession, whose webSocketTask(with:) a Turntable answers with the recorded conversation (Gramophone.docc/WebSockets.md)"
            )
        }
        if isBodyUnreadable, recording {
            return refused(
                .cannotDecodeRawData,
                "Gramophone cannot record this upload through a URLSession: the body of an upload task (uploadTask(with:from:), upload(for:from:), a streamed request) does not reach a URLProtocol here, and recording it would keep the answer to a request nobody sent. Set the body on the request and use a data task, or upload through the Turntable itself (Gramophone.docc/SessionsAndTasks.md)"
            )
        }
        return nil
    }

    /// Whether `task` opens a WebSocket: by its kind, or (Apple platforms send the handshake as
    /// an `http(s)` request) by the request's scheme or `Upgrade: websocket`.
    static func opensWebSocket(_ task: URLSessionTask?, _ request: URLRequest) -> Bool {
        if task is URLSessionWebSocketTask { return true }
        // Read from the URL's text: parsing out `scheme` costs more than the rest of this check.
        if let scheme = request.url?.absoluteString.utf8.lazy.prefix(4).map({ $0 | 0x20 }),  // lower-cased
            scheme.starts(with: "ws:".utf8) || scheme.elementsEqual("wss:".utf8)
        {
            return true
        }
        return request.value(forHTTPHeaderField: "Upgrade")?.lowercased().contains("websocket") == true
    }

    /// A session's cookie storage, to keep the cookies of live responses in.
    struct CookieJar: Sendable {
        /// Unchecked: `HTTPCookieStorage` is documented thread-safe but not declared `Sendable`.
        let storage: Unchecked<HTTPCookieStorage>

        func store(from response: HTTPURLResponse, for request: URLRequest) {
            guard request.httpShouldHandleCookies, let url = response.url ?? request.url else { return }
            var fields: [String: String] = [:]
            for case let (name as String, value as String) in response.allHeaderFields { fields[name] = value }
            let cookies = HTTPCookie.cookies(withResponseHeaderFields: fields, for: url)
            if !cookies.isEmpty { storage.value.setCookies(cookies, for: url, mainDocumentURL: request.mainDocumentURL) }
        }
    }

    #if canImport(FoundationNetworking)
    /// The stored properties of `task` and its superclasses, by name.
    private static func fields(of task: URLSessionTask) -> [String: Any] {
        var fields: [String: Any] = [:]
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            for child in current.children {
                if let label = child.label, fields[label] == nil { fields[label] = child.value }
            }
            mirror = current.superclassMirror
        }
        return fields
    }

    /// The value inside an optional (or the value itself).
    private static func unwrapped(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first?.value
    }

    /// An enum value's case name and payload.
    private static func bodyCase(_ value: Any) -> (String, Any?) {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum else { return ("", nil) }
        if let child = mirror.children.first { return (child.label ?? "", child.value) }
        return ("\(value)", nil)
    }

    /// Whether the session calls its delegate for `task` (rather than a completion handler):
    /// the case its task registry holds for the task's identifier is `callDelegate`.
    private static func callsDelegate(_ task: URLSessionTask, in session: URLSession) -> Bool {
        var mirror: Mirror? = Mirror(reflecting: session)
        while let current = mirror {
            for child in current.children where child.label == "taskRegistry" {
                for registryField in Mirror(reflecting: child.value).children where registryField.label == "behaviours" {
                    for entry in Mirror(reflecting: registryField.value).children {
                        let pair = Mirror(reflecting: entry.value).children.map(\.value)
                        guard pair.count == 2, pair[0] as? Int == task.taskIdentifier else { continue }
                        return bodyCase(pair[1]).0 == "callDelegate"
                    }
                }
            }
            mirror = current.superclassMirror
        }
        return false
    }
    #endif
}
