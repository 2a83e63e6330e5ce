import Foundation

/// How a stubbed response travels: at once, late, slowly, or not at all.
///
/// Use it to see a loading indicator, a timeout, or an offline screen in tests and previews.
public enum NetworkCondition: Sendable, Equatable {
    /// The response arrives at once (the default).
    case immediate
    /// The response arrives after this many seconds.
    case delayed(TimeInterval)
    /// The body is spread over time in chunks, as a connection of this speed would deliver it.
    case throughput(ConnectionSpeed)
    /// The headers arrive after `delay` seconds, then the body at `speed`: OHHTTPStubs'
    /// `requestTime` with `responseTime`. `.delivered(.delayed(_:))` and `.delivered(.throughput(…))`
    /// on one `StubResponse` combine into it.
    case delayedThroughput(delay: TimeInterval, speed: ConnectionSpeed)
    /// The network is down: every request fails with `URLError(.notConnectedToInternet)`.
    case down

    /// How long between two chunks of a throttled body. Short enough to show progress, long
    /// enough that sleeping is not most of the work.
    static let chunkInterval: TimeInterval = 0.1

    /// When each piece of a `byteCount`-byte body is due, as (delay before it, size).
    /// The headers go out after `initialDelay`.
    func deliveryPlan(byteCount: Int) -> (initialDelay: TimeInterval, chunks: [(delay: TimeInterval, size: Int)]) {
        switch self {
        case .immediate, .down, .delayed:
            let delay = if case .delayed(let seconds) = self { max(0, seconds) } else { TimeInterval(0) }
            return (delay, byteCount > 0 ? [(0, byteCount)] : [])
        case .delayedThroughput(let delay, let speed):
            return (max(0, delay), NetworkCondition.throughput(speed).deliveryPlan(byteCount: byteCount).chunks)
        case .throughput(let speed):
            let bytesPerChunk = max(1, Int(speed.bytesPerSecond * Self.chunkInterval))
            var chunks: [(delay: TimeInterval, size: Int)] = []
            var remaining = byteCount
            while remaining > 0 {
                let size = min(bytesPerChunk, remaining)
                // Each chunk waits for the time its own bytes take on the wire.
                chunks.append((TimeInterval(size) / speed.bytesPerSecond, size))
                remaining -= size
            }
            return (0, chunks)
        }
    }

    /// `self` then `next`, as modifiers on one response apply them: a delay and a throughput
    /// add up to both; any other condition replaces what was there.
    func followed(by next: NetworkCondition) -> NetworkCondition {
        switch (self, next) {
        case (.delayed(let delay), .throughput(let speed)), (.delayedThroughput(let delay, _), .throughput(let speed)),
            (.throughput(let speed), .delayed(let delay)), (.delayedThroughput(_, let speed), .delayed(let delay)):
            return .delayedThroughput(delay: delay, speed: speed)
        default:
            return next
        }
    }

    /// How long the whole response takes, for paths that hand the body over at once.
    func totalDelay(byteCount: Int) -> TimeInterval {
        let plan = deliveryPlan(byteCount: byteCount)
        return plan.chunks.reduce(plan.initialDelay) { $0 + $1.delay }
    }
}

/// A connection speed, in bits per second.
///
/// The presets follow the table of RealHTTP's HTTPStubber (and OHHTTPStubs before it).
public struct ConnectionSpeed: Sendable, Equatable {
    var bitsPerSecond: Double

    init(bitsPerSecond: Double) { self.bitsPerSecond = max(1, bitsPerSecond) }

    /// A speed in kilobits (1000 bits) per second.
    public static func kbps(_ kilobits: Double) -> ConnectionSpeed { ConnectionSpeed(bitsPerSecond: kilobits * 1000) }

    /// GPRS, 56 kbps (7 KB/s).
    public static let gprs = kbps(56)
    /// EDGE, 128 kbps (16 KB/s).
    public static let edge = kbps(128)
    /// Basic DSL, 512 kbps (64 KB/s).
    public static let dsl = kbps(512)
    /// 3G, 3200 kbps (400 KB/s).
    public static let threeG = kbps(3200)
    /// Wi-Fi, 12000 kbps (1500 KB/s).
    public static let wifi = kbps(12000)

    var bytesPerSecond: Double { bitsPerSecond / 8 }
}
