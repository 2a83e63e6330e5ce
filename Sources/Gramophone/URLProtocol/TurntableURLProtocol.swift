import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// A real URLSession answered by a Turntable.
//
// Each Turntable gets a URLProtocol class of its own, so a session knows its Turntable by the
// class it instantiates, with no "current vinyl" anywhere: Swift instantiates generic classes
// at run time, and `TurntableURLProtocol<Slot>` specialised over a chain of marker types
// spelling a number in binary (`SlotBit1<SlotBit0<SlotRoot>>` is 0b10 = 2, counting from the
// outside in) is a distinct class per number. A lock-protected table maps each class to its
// Turntable, weakly. Routing by a header in the configuration would not work: on Linux,
// `httpAdditionalHeaders` never reach the URLProtocol.

/// A type in the chain that names a protocol class.
protocol SlotMarker {}
enum SlotRoot: SlotMarker {}
enum SlotBit0<Next: SlotMarker>: SlotMarker {}
enum SlotBit1<Next: SlotMarker>: SlotMarker {}

extension SlotMarker {
    static var appendingZero: any SlotMarker.Type { SlotBit0<Self>.self }
    static var appendingOne: any SlotMarker.Type { SlotBit1<Self>.self }
    static var protocolClass: URLProtocol.Type { TurntableURLProtocol<Self>.self }
}

/// Which Turntable each protocol class answers for.
enum ProtocolSlots {
    private struct WeakTurntable: Sendable {
        weak var turntable: Turntable?
        #if canImport(FoundationNetworking)
        /// On Linux, the delegate of the one `makeURLSession()` session that uses this class.
        weak var sessionDelegate: TaskFirstDelegate?
        #endif
    }

    private struct Table: Sendable {
        var next = 0
        var owners: [ObjectIdentifier: WeakTurntable] = [:]
    }

    private static let table = Locked(Table())

    /// A protocol class no other Turntable has had, now owned by `turntable`.
    static func claim(for turntable: Turntable) -> URLProtocol.Type {
        table.withLock { table in
            let number = table.next
            table.next += 1
            let protocolClass = marker(for: number).protocolClass
            table.owners[ObjectIdentifier(protocolClass)] = WeakTurntable(turntable: turntable)
            // Forget owners that are gone, so the table stays as small as the live Turntables.
            if table.owners.count > 64, table.owners.count.isMultiple(of: 64) {
                table.owners = table.owners.filter { $0.value.turntable != nil }
            }
            return protocolClass
        }
    }

    static func turntable(for protocolClass: AnyClass) -> Turntable? {
        table.withLock { $0.owners[ObjectIdentifier(protocolClass)]?.turntable }
    }

    #if canImport(FoundationNetworking)
    /// A protocol class for one `makeURLSession()` session on Linux, which asks its delegate about redirects.
    static func claim(for turntable: Turntable, sessionDelegate: TaskFirstDelegate) -> URLProtocol.Type {
        let protocolClass = claim(for: turntable)
        table.withLock { $0.owners[ObjectIdentifier(protocolClass)]?.sessionDelegate = sessionDelegate }
        return protocolClass
    }

    /// The delegate of the `makeURLSession()` session of `protocolClass`, which knows that
    /// session, so a load need not find it in Foundation's internals; nil for a class that serves
    /// sessions made from a configuration.
    static func sessionDelegate(for protocolClass: AnyClass) -> TaskFirstDelegate? {
        table.withLock { $0.owners[ObjectIdentifier(protocolClass)]?.sessionDelegate }
    }
    #endif

    /// Answers `urlProtocol`'s request from `turntable` after the playback delay. Not generic,
    /// so the task captures no metatype of the protocol class. Called in `startLoading`, where
    /// the session's state may be read (Linux calls it on the session's queue).
    static func load(_ urlProtocol: URLProtocol, from turntable: Turntable) -> ProtocolLoad {
        #if canImport(FoundationNetworking)
        let sessionDelegate = ProtocolSlots.sessionDelegate(for: type(of: urlProtocol))
        // The task is that session's when it answers with the session's delegate (Linux gives a
        // task without a delegate of its own the session's); a task of another session made from
        // the same configuration, or with a delegate of its own, is looked up in Foundation.
        let known = sessionDelegate.flatMap { delegate in urlProtocol.task?.delegate === delegate ? delegate : nil }
        let task = LoadingTask(urlProtocol.task, request: urlProtocol.request, session: known?.session, configuration: known?.configuration)
        #else
        let task = LoadingTask(urlProtocol.task, request: urlProtocol.request)
        #endif
        // The request as the session sends it: the body, headers and cookies it adds itself.
        let request = task.completed(urlProtocol.request)
        let refusal = task.refusal(for: request, recording: turntable.recorder?.mayRecord == true)
        let converted = Result { try Track.Request(request) }
        // Whether the task hears each piece is read by reflection: only where someone could hear
        // them, and only for an answer that may come in pieces (a track known to go in one piece
        // goes the same way either way; finding that out is a lookup).
        let receivesPieces = task.mayHearPieces && (try? converted.get()).map(turntable.mayAnswerInPieces) != false && task.receivesPieces
        let cookies = task.cookieJar
        #if canImport(FoundationNetworking)
        // Unchecked: the task is only handed to its delegates, on their queue, as URLSession does.
        let asking = Unchecked((sessionDelegate, urlProtocol.task))
        #endif
        return ProtocolLoad(urlProtocol) { calls in
            if let refusal { return await URLProtocolDelivery.deliver(.failure(refusal), to: calls, chunks: []) }
            let outcome: Result<(HTTPURLResponse, Data), any Error>
            var plan: StreamPlan?
            var relayed: ChunkSource?
            var cachePolicy = URLCache.StoragePolicy.notAllowed
            do {
                let live = try converted.get()
                #if canImport(FoundationNetworking)
                // Linux Foundation traps on a URLProtocol's redirect (`wasRedirectedTo`), so the
                // protocol follows it itself, asking a makeURLSession() session's delegates
                // (Gramophone.docc/Platforms.md).
                let answer = await turntable.answerFollowingRedirects(live, streaming: receivesPieces, through: .urlProtocol) { response, next in
                    guard let delegate = asking.value.0, let task = asking.value.1 else { return next }
                    return await delegate.approveRedirect(of: task, response, next)
                }
                #else
                let answer = await turntable.answer(live, streaming: receivesPieces, through: .urlProtocol)
                if let (response, next) = Turntable.redirectRequest(after: answer, of: live),
                    let nextRequest = try? Track.Request(next), turntable.canAnswer(nextRequest)
                {
                    // The session asks its delegate and loads the target through this class again.
                    await turntable.waitForPlayback(of: answer)
                    await URLProtocolDelivery.redirect(to: next, after: response, body: (try? answer.outcome.get().1) ?? Data(), through: calls)
                    return
                }
                #endif
                if case .stub = answer.source, answer.stream == nil, answer.condition != .immediate {
                    // A stub's body at its network condition's pace, as a slow network hands it over.
                    let byteCount = (try? answer.outcome.get().1.count) ?? 0
                    let paced = answer.condition.deliveryPlan(byteCount: byteCount)
                    guard await URLProtocolDelivery.wait(paced.initialDelay) else { return }
                    return await URLProtocolDelivery.deliver(answer.outcome, to: calls, cachePolicy: answer.cachePolicy, chunks: paced.chunks, inOnePiece: !receivesPieces)
                }
                await turntable.waitForPlayback(of: answer)
                outcome = answer.outcome
                cachePolicy = answer.cachePolicy
                relayed = answer.relayed
                if case .network = answer.source, case .success(let (response, _)) = outcome { cookies?.store(from: response, for: request) }
                if relayed == nil, case .success(let (_, body)) = outcome { plan = turntable.streamPlan(for: answer, body: body, url: live.url) }
            } catch {
                outcome = .failure(error)
            }
            if let relayed, case .success(let (response, _)) = outcome {
                // A live answer (recording, or a host the recording leaves alone) goes on piece by piece as it arrives.
                return await URLProtocolDelivery.relay(response, from: relayed, to: calls)
            }
            // A streamed answer goes piece by piece, as recorded (or as the stub lists them).
            let chunks = plan.map(URLProtocolDelivery.chunks) ?? URLProtocolDelivery.immediateChunks(byteCount: (try? outcome.get().1.count) ?? 0, size: turntable.bodyChunkSize)
            await URLProtocolDelivery.deliver(outcome, to: calls, cachePolicy: cachePolicy, chunks: chunks, ending: plan?.ending, inOnePiece: !receivesPieces)
        }
    }

    static func marker(for number: Int) -> any SlotMarker.Type {
        var marker: any SlotMarker.Type = SlotRoot.self
        var rest = number
        repeat {
            marker = rest & 1 == 1 ? marker.appendingOne : marker.appendingZero
            rest >>= 1
        } while rest > 0
        return marker
    }
}

/// Answers a URLSession's requests from the Turntable that owns this class.
final class TurntableURLProtocol<Slot: SlotMarker>: LoadingURLProtocol {
    // Every request of a session made with this class is ours, also once its Turntable is
    // gone: declining it would send it on to the real network (startLoading fails it instead).
    override class func canInit(with request: URLRequest) -> Bool { true }

    override func startLoading() {
        guard let turntable = ProtocolSlots.turntable(for: Self.self) else {
            client?.urlProtocol(
                self,
                didFailWithError: URLError(
                    .cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: "The Turntable behind this URLSession no longer exists; keep it alive while the session is used"]))
            return
        }
        start(from: turntable)
    }
}

extension Turntable {
    /// Whether the answer to `live` may reach a URLProtocol's client in more than one piece: a
    /// stub's, the network's, a streamed track's, a body longer than `bodyChunkSize`, a
    /// redirect's target, or anything this cannot tell without answering. False only for a
    /// track that goes in one piece, looked up as `canAnswer` looks (nothing is played).
    func mayAnswerInPieces(_ live: Track.Request) -> Bool {
        if recorder != nil || !stubs.isEmpty { return true }
        let size = bodyChunkSize
        let parts = RequestParts(keyOnly: live)
        return deck.withLock { deck in
            guard deck.strategy.echoes.isEmpty, let index = deck.selector.peek(live, parts: parts) else { return true }
            guard case .response(let response) = deck.index.tracks[index].outcome else { return false }
            return response.stream != nil || response.body.count > size || (300..<400).contains(response.status)
        }
    }

    /// The URLProtocol class that answers requests from this Turntable.
    var urlProtocolClass: AnyClass {
        settings.withLock { makeProtocolClassLocked(&$0) }
    }

    /// A configuration whose sessions this Turntable answers: `base` with the Turntable's
    /// URLProtocol class first and caching off, so every request reaches it; the rest of `base`
    /// (headers, cookie storage, timeouts) stays. With no `base`, it starts from the
    /// configuration of the `URLSession` the Turntable records through (`Recording.session`),
    /// its `httpAdditionalHeaders` included, as Vinyl's `turntable.configuration` did; from
    /// `.ephemeral` when there is none.
    ///
    /// Recording, what reaches the network and the track is what the session sends: the body
    /// (of upload tasks too, on Linux; on Apple platforms recording an upload task's body, which
    /// reaches no URLProtocol there, fails the task with an error saying so), the configuration's
    /// `httpAdditionalHeaders` and its cookies. On Linux, download tasks complete with
    /// `URLError(.unsupportedURL)`: Foundation cannot finish them here. See
    /// <doc:SessionsAndTasks>, "A real URLSession (URLProtocol)".
    ///
    /// Not on watchOS, where a configuration's `URLProtocol` classes do not intercept requests.
    @available(watchOS, unavailable, message: "URLProtocol does not intercept requests on watchOS: hand the code under test a Turntable (a NetworkSession) instead")
    public func makeURLSessionConfiguration(base: URLSessionConfiguration? = nil) -> URLSessionConfiguration {
        let base = base ?? recordingConfiguration
        return settings.withLock { makeURLSessionConfigurationLocked(&$0, base: base) }
    }

    /// A real `URLSession` whose requests this Turntable answers, for code that needs a
    /// concrete `URLSession`. Sessions from different Turntables never see each other's tracks.
    /// The session calls its `delegate` itself, as any URLSession does; hold on to the
    /// Turntable while the session is in use.
    ///
    /// Not on watchOS, where a configuration's `URLProtocol` classes do not intercept requests.
    @available(watchOS, unavailable, message: "URLProtocol does not intercept requests on watchOS: hand the code under test a Turntable (a NetworkSession) instead")
    public func makeURLSession(delegate: (any URLSessionDelegate)? = nil, delegateQueue: OperationQueue? = nil) -> URLSession {
        #if canImport(FoundationNetworking)
        // Linux Foundation calls neither a task's own delegate nor any delegate about a
        // URLProtocol's redirect: the session's delegate is ours, which calls both, in the order
        // Apple's URLSession does, with a protocol class of this session's own (Platforms.md).
        let taskFirst = TaskFirstDelegate(delegate)
        let configuration = settings.withLock { settings in
            makeURLSessionConfigurationLocked(&settings, base: recordingConfiguration, protocolClass: ProtocolSlots.claim(for: self, sessionDelegate: taskFirst))
        }
        let session = URLSession(configuration: configuration, delegate: taskFirst, delegateQueue: delegateQueue)
        taskFirst.session = session
        taskFirst.configuration = configuration
        return session
        #else
        return URLSession(configuration: makeURLSessionConfiguration(), delegate: delegate, delegateQueue: delegateQueue)
        #endif
    }

    /// The configuration sessions start from when none is given: the recording `URLSession`'s,
    /// or `.ephemeral`.
    private var recordingConfiguration: URLSessionConfiguration {
        (recorder?.recording.session as? URLSession)?.configuration ?? .ephemeral
    }

    func makeURLSessionConfigurationLocked(
        _ settings: inout SessionSettings, base: URLSessionConfiguration = .ephemeral, protocolClass: URLProtocol.Type? = nil
    ) -> URLSessionConfiguration {
        let configuration = base.copy() as? URLSessionConfiguration ?? .ephemeral
        configuration.protocolClasses = [protocolClass ?? makeProtocolClassLocked(&settings)] + (configuration.protocolClasses ?? [])
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        return configuration
    }

    private func makeProtocolClassLocked(_ settings: inout SessionSettings) -> URLProtocol.Type {
        if let existing = settings.protocolClass { return existing }
        let claimed = ProtocolSlots.claim(for: self)
        settings.protocolClass = claimed
        return claimed
    }
}
