import Foundation

/// The order a Turntable took its requests in, kept for what follows: tracks are chosen in
/// that order, and tasks whose answers are due at once complete in it.
///
/// A task takes its place when it is resumed, an async call when it is made (only if tasks
/// are still waiting to choose; otherwise it chooses at once, and pays one lock). Each place
/// has a turn in two lines: choosing a track, and completing. A place waits for the places
/// before it in a line to end there; it never waits on a place after it, and it leaves the
/// choosing line before it joins the completing one, so no two places wait on each other.
/// Vinyl chose a task's track when the task was made and answered on one serial queue; code
/// ported from it, and any code that resumes tasks in a row, relies on this order.
final class ResumeOrder: Sendable {
    /// Places in one line: each waits until every place before it has ended.
    struct Line {
        var next = 0
        /// Every place below this one has ended.
        var current = 0
        var ended: Set<Int> = []
        var waiting: [Int: CheckedContinuation<Void, Never>] = [:]

        mutating func take() -> Int {
            defer { next += 1 }
            return next
        }

        /// Ends `place` (once is enough; again does nothing) and returns the waiter whose turn came.
        mutating func end(_ place: Int) -> CheckedContinuation<Void, Never>? {
            guard place >= current else { return nil }
            ended.insert(place)
            while ended.remove(current) != nil { current += 1 }
            return waiting.removeValue(forKey: current)
        }
    }

    struct Lines {
        var choosing = Line()
        var completing = Line()
    }

    let lines = Locked(Lines())

    /// A resumed task's place in both lines, taken together so they agree.
    func taskPlace() -> Turn {
        let (choosing, completing) = lines.withLock { ($0.choosing.take(), $0.completing.take()) }
        return Turn(order: self, choosing: choosing, completing: completing)
    }

    /// An async call's place: nil when no place is waiting to choose, so the call chooses at
    /// once (the common case costs one lock and no allocation).
    func callPlace() -> Turn? {
        let place = lines.withLock { lines -> Int? in
            lines.choosing.current == lines.choosing.next ? nil : lines.choosing.take()
        }
        return place.map { Turn(order: self, choosing: $0, completing: nil) }
    }

    /// Ends `place` in `line` (`\.choosing` or `\.completing`) and wakes the waiter whose turn came.
    func end(_ place: Int, in line: WritableKeyPath<Lines, Line>) {
        lines.withLock { $0[keyPath: line].end(place) }?.resume()
    }

    /// Returns once every place before `place` in `line` has ended.
    nonisolated(nonsending) func wait(_ place: Int, in line: WritableKeyPath<Lines, Line> & Sendable) async {
        if lines.withLock({ $0[keyPath: line].current >= place }) { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let due = lines.withLock { lines -> Bool in
                if lines[keyPath: line].current >= place { return true }
                lines[keyPath: line].waiting[place] = continuation
                return false
            }
            if due { continuation.resume() }
        }
    }
}

/// One request's place in its Turntable's `ResumeOrder`: ended in each line exactly once,
/// however the request ends (ending again does nothing).
final class Turn: Sendable {
    let order: ResumeOrder
    let choosing: Int
    /// Nil for an async call: its caller awaits the answer, there is no completion to order.
    let completing: Int?

    init(order: ResumeOrder, choosing: Int, completing: Int?) {
        self.order = order
        self.choosing = choosing
        self.completing = completing
    }

    nonisolated(nonsending) func waitToChoose() async { await order.wait(choosing, in: \.choosing) }

    /// The answer is chosen (a track, a stub, a miss): the next place may choose.
    func endChoosing() { order.end(choosing, in: \.choosing) }

    /// The request goes to the network (recorded, or a host the recording leaves alone) or to
    /// a stub's own code: its answer is not due at once, so nothing waits for it in either line.
    func goesLive() {
        endChoosing()
        endCompleting()
    }

    nonisolated(nonsending) func waitToComplete() async {
        if let completing { await order.wait(completing, in: \.completing) }
    }

    func endCompleting() {
        if let completing { order.end(completing, in: \.completing) }
    }
}
