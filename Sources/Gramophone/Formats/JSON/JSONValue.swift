/// A JSON document as the vinyl formats see it.
///
/// Objects keep their members in file order and numbers keep their exact text, so a body
/// stored as a JSON value serialises back to the very bytes it was read from.
enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's literal text, as written (`1.0` stays `1.0`, `1e3` stays `1e3`).
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        // Vinyl objects have a handful of keys: a scan beats building a dictionary.
        for member in members where member.key == key { return member.value }
        return nil
    }

    var kindName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    var objectMembers: [(key: String, value: JSONValue)]? { if case .object(let m) = self { return m } else { return nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
}

extension JSONValue {
    /// Equality that ignores object key order and number spelling (`1.0` == `1`):
    /// what "the same JSON" means when matching request bodies.
    func semanticallyEquals(_ other: JSONValue) -> Bool {
        switch (self, other) {
        case let (.number(a), .number(b)):
            if a == b { return true }
            guard let x = Double(a), let y = Double(b) else { return false }
            return x == y
        case let (.array(a), .array(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.semanticallyEquals($1) }
        case let (.object(a), .object(b)):
            guard a.count == b.count else { return false }
            var rhs: [String: JSONValue] = [:]
            for member in b { rhs[member.key] = member.value }
            for member in a {
                guard let value = rhs[member.key], member.value.semanticallyEquals(value) else { return false }
            }
            return true
        default:
            return self == other
        }
    }
}
