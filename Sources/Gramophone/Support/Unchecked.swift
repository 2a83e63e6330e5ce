/// Carries a value Foundation does not mark `Sendable` across a concurrency boundary.
///
/// Used only for objects Foundation itself hands between threads (tasks, delegates, queues,
/// URLProtocol clients), whose thread-safety Foundation documents but the types do not declare.
struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
