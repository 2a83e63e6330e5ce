import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a Turntable behaves as a session: its delegate and queue, timing and chunking.
struct SessionSettings: @unchecked Sendable {
    // @unchecked: OperationQueue and the delegate are reference types Foundation does not mark
    // Sendable on every platform; they are only read under the Turntable's lock and then used
    // the way URLSession uses them (calls enqueued on the queue).
    var delegate: (any URLSessionDelegate)?
    var delegateQueue: OperationQueue = SessionSettings.serialQueue()
    var timing: PlaybackTiming = .immediate
    var clock = PlaybackClock()
    var chunkSize = 16 * 1024
    var chunking = StreamChunking.asRecorded
    var nextTaskIdentifier = 0
    /// The URLSession passed as `session` to delegate methods, made on first need.
    var delegateSession: URLSession?
    /// This Turntable's own URLProtocol class, claimed on first need.
    var protocolClass: URLProtocol.Type?

    /// A serial queue, as URLSession makes when given none.
    static func serialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Gramophone.Turntable.delegateQueue"
        return queue
    }
}

extension Turntable {
    /// Sets the delegate and the queue its calls (and completion handlers) run on; a new
    /// serial queue when `queue` is nil. Tasks already running keep what they started with.
    public func setDelegate(_ delegate: (any URLSessionDelegate)?, queue: OperationQueue? = nil) {
        settings.withLock { settings in
            settings.delegate = delegate
            settings.delegateQueue = queue ?? SessionSettings.serialQueue()
        }
    }

    /// The delegate tasks report to, as `URLSession.delegate`: nil until `setDelegate(_:queue:)`
    /// gives one.
    public var delegate: (any URLSessionDelegate)? { settings.withLock { $0.delegate } }

    /// The queue delegate calls and completion handlers run on, as `URLSession.delegateQueue`:
    /// a serial queue of its own until `setDelegate(_:queue:)` names another.
    public var delegateQueue: OperationQueue { settings.withLock { $0.delegateQueue } }

    /// When answers arrive; see `PlaybackTiming`. Setting it (even to the same value) starts
    /// the chronological clock over: the next request is the recording's start again.
    public var timing: PlaybackTiming {
        get { settings.withLock { $0.timing } }
        set {
            settings.withLock {
                $0.timing = newValue; $0.clock = PlaybackClock()
            }
        }
    }

    /// The largest piece of a body handed to `urlSession(_:dataTask:didReceive:)` (or written
    /// per `didWriteData` call) at once: a body longer than this arrives in several calls, as
    /// from a network. 16 KiB by default; at least 1.
    var bodyChunkSize: Int {
        get { settings.withLock { $0.chunkSize } }
        set { settings.withLock { $0.chunkSize = max(1, newValue) } }
    }

    func nextTaskIdentifier() -> Int {
        settings.withLock {
            $0.nextTaskIdentifier += 1; return $0.nextTaskIdentifier
        }
    }
}
