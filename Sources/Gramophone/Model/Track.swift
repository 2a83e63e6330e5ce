import Foundation

/// One recorded exchange: a request and what came back, a response or an error (or a response
/// and then an error: ``Track/Response/failure``).
///
/// Tracks are plain values: build them in code (see `Track.json(_:)` and friends), read them
/// from a vinyl file, or record them. A vinyl plays them back.
public struct Track: Sendable, Hashable {
    /// What was sent.
    public var request: Request
    /// What came back.
    public var outcome: Outcome
    /// When it was recorded, if known.
    public var recordedAt: Date?
    /// How long the exchange took when it was recorded, in seconds, if known.
    public var duration: TimeInterval?

    /// A track answering `request` with `outcome`; `recordedAt` and `duration` are what a
    /// recording knows, used by recorded-duration timing and shown by `gramophone inspect`.
    public init(request: Request, outcome: Outcome, recordedAt: Date? = nil, duration: TimeInterval? = nil) {
        self.request = request
        self.outcome = outcome
        self.recordedAt = recordedAt
        self.duration = duration
    }

    init(request: Request, response: Response, recordedAt: Date? = nil, duration: TimeInterval? = nil) {
        self.init(request: request, outcome: .response(response), recordedAt: recordedAt, duration: duration)
    }

    /// The recorded response, or nil when the track holds an error.
    public var response: Response? {
        if case .response(let response) = outcome { return response }
        return nil
    }

    /// The recorded error, or nil when the track holds a response.
    var failure: Failure? {
        if case .failure(let failure) = outcome { return failure }
        return nil
    }

    /// What came back for a request.
    public enum Outcome: Sendable, Hashable {
        /// An HTTP response, whatever its status.
        case response(Response)
        /// An error instead of a response: no connection, a timeout, a cancelled request. An
        /// error after the response (the connection lost mid-body) is the response's
        /// ``Track/Response/failure``.
        case failure(Failure)
    }

    /// A recorded request.
    public struct Request: Sendable, Hashable {
        /// Upper-case HTTP method; `GET` when a file leaves it out.
        public var method: String
        /// The URL as sent, query included.
        public var url: URL
        /// The header lines, in the order they were sent.
        public var headers: Headers
        /// The body; empty when there was none.
        public var body: Data

        /// A request; `method` is stored upper-cased.
        public init(method: String = "GET", url: URL, headers: Headers = [:], body: Data = Data()) {
            self.method = method.uppercasedIfNeeded
            self.url = url
            self.headers = headers
            self.body = body
        }
    }

    /// A recorded HTTP response.
    public struct Response: Sendable, Hashable {
        /// The HTTP status code.
        public var status: Int
        /// The header lines, in the order they came.
        public var headers: Headers
        /// The body as the client received it; empty when there was none.
        public var body: Data
        /// The URL the response came from (after redirects); the request's URL when nil.
        public var url: URL?
        /// `HTTP/1.1` when unknown.
        var httpVersion: String?
        /// How a streamed body arrived, piece by piece; nil for a body replayed in one piece.
        var stream: TrackStream?
        /// The WebSocket conversation that followed this handshake response (status 101); nil
        /// for any other response.
        public var conversation: WebSocketConversation?

        /// How the body was streamed (`12 chunks over 480 ms, finished`), for the CLI; nil when it was not.
        package var streamSummary: String? { stream?.summary }

        /// The error the transfer ended with after this response arrived (the connection lost
        /// mid-body, a timeout), or nil when it ended cleanly. A replay hands over the status,
        /// headers and body, then this error, as URLSession reports such a transfer: `data(for:)`
        /// throws it, a completion handler gets the response with it (and no data), a delegate
        /// gets the response and the body, then `didCompleteWithError`.
        ///
        /// Stored as the end of the body's stream (a vinyl's `"stream": {"end": {"error": …}}`);
        /// setting it on a body that was not streamed makes the body one piece, so it replays as
        /// before, then the error. A stream the caller cancelled while recording reads as
        /// `URLError.cancelled`, the error its replay ends with.
        public var failure: Failure? {
            get { stream?.failure }
            set {
                guard let failure = newValue else {
                    guard let current = stream, current.failure != nil else { return }
                    // A stream made only to carry the error (one piece, at once) goes with it.
                    stream = current.isOnePieceAtOnce ? nil : TrackStream(chunks: current.chunks, end: .finished)
                    return
                }
                let chunks = stream?.chunks ?? (body.isEmpty ? [] : [TrackStream.Chunk(offset: 0, length: body.count)])
                stream = TrackStream(chunks: chunks, end: .failed(failure))
            }
        }

        /// A response; `httpVersion` is the protocol the status line names (`HTTP/1.1` when nil).
        public init(status: Int = 200, headers: Headers = [:], body: Data = Data(), url: URL? = nil, httpVersion: String? = nil) {
            self.status = status
            self.headers = headers
            self.body = body
            self.url = url
            self.httpVersion = httpVersion
        }
    }

    /// A recorded error, replayed as the same `URLError` or `NSError`.
    public struct Failure: Sendable, Hashable {
        /// The error domain, such as `NSURLErrorDomain`.
        public var domain: String
        /// The error code within the domain, such as `URLError.Code.timedOut.rawValue`.
        public var code: Int
        /// The error's description as recorded.
        public var description: String

        /// An error of `domain` and `code`.
        public init(domain: String, code: Int, description: String = "") {
            self.domain = domain
            self.code = code
            self.description = description
        }

        init(_ code: URLError.Code, description: String? = nil) {
            self.init(domain: NSURLErrorDomain, code: code.rawValue, description: description ?? Self.describe(code))
        }

        init(_ error: Error) {
            let nsError = error as NSError
            self.init(domain: nsError.domain, code: nsError.code, description: nsError.localizedDescription)
        }

        /// The error as a client sees it: a `URLError` for the URL domain, else an `NSError`.
        func makeError(for url: URL?) -> Error {
            var userInfo: [String: Any] = [NSLocalizedDescriptionKey: description]
            if let url {
                userInfo[NSURLErrorFailingURLErrorKey] = url
            }
            if domain == NSURLErrorDomain {
                // The initialiser is failable on Linux and not on Apple systems; this compiles on both.
                let urlCode: URLError.Code? = URLError.Code(rawValue: code)
                return URLError(urlCode ?? .unknown, userInfo: userInfo)
            }
            return NSError(domain: domain, code: code, userInfo: userInfo)
        }

        static func describe(_ code: URLError.Code) -> String {
            switch code {
            case .notConnectedToInternet: return "The Internet connection appears to be offline."
            case .timedOut: return "The request timed out."
            case .cannotFindHost: return "A server with the specified hostname could not be found."
            case .cannotConnectToHost: return "Could not connect to the server."
            case .networkConnectionLost: return "The network connection was lost."
            case .cancelled: return "cancelled"
            case .badServerResponse: return "The server returned a bad response."
            case .secureConnectionFailed: return "A TLS error caused the secure connection to fail."
            default: return "URL error \(code.rawValue)"
            }
        }
    }
}

/// A named, ordered collection of tracks: what a file in `Vinyls/` holds.
public struct Vinyl: Sendable, Hashable {
    /// The vinyl's name: its file name without extension, shown in miss reports.
    public var name: String
    /// The tracks, in recorded order.
    public var tracks: [Track]
    /// The format of the file the vinyl was read from; nil for a vinyl built in code.
    /// A Turntable given no strategy matches a DVR cassette as DVR did (`MatchingStrategy.dvr`).
    public internal(set) var format: VinylFormat?
    /// What reading the file could not keep as written, each with how a replay serves it
    /// (a DVR body that is not valid base64 is read as no body, as DVR read it). Empty for a
    /// vinyl built in code; `gramophone lint` lists them.
    public internal(set) var issues: [VinylIssue] = []

    /// A vinyl named `name` holding `tracks`.
    public init(name: String, tracks: [Track] = []) {
        self.name = name
        self.tracks = tracks
    }

    /// Two vinyls are equal when their names and tracks are: where a vinyl was read from is
    /// not what it holds.
    public static func == (a: Vinyl, b: Vinyl) -> Bool { a.name == b.name && a.tracks == b.tracks }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(tracks)
    }
}
