/// HTTP header fields in the order they were recorded, looked up case-insensitively.
///
/// Foundation rewrites header names (`ETag` arrives as `Etag` on Linux), so names are always
/// compared ignoring case while the recorded spelling is kept for the file. A name may repeat
/// (HAR files list each `Set-Cookie` separately); `subscript` joins repeats with ", " as
/// `HTTPURLResponse` does.
/// The fields are a collection, in order, repeats included: `for field in headers { … }`.
public struct Headers: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible, RandomAccessCollection {
    /// One header line.
    public struct Field: Sendable, Hashable {
        /// The name as written; compared without regard to case.
        public var name: String
        /// The value as written.
        public var value: String
        /// A header line with this name and value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in recorded order.
    public private(set) var fields: [Field]

    /// Headers holding `fields` in this order, repeats kept.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Fields from a dictionary, sorted by name so the order is stable.
    public init(_ dictionary: [String: String]) {
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: $0.key, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    // MARK: The fields, in order: `for field in headers { print(field.name, field.value) }`

    /// The position of the first field.
    public var startIndex: Int { fields.startIndex }
    /// The position after the last field.
    public var endIndex: Int { fields.endIndex }
    /// The field at `position`, as sent or recorded (repeated names kept apart).
    public subscript(position: Int) -> Field { fields[position] }

    /// The value of `name` (any case); repeated fields joined with ", ".
    public subscript(name: String) -> String? {
        get {
            var result: String?
            for field in fields where field.name.caseInsensitiveEquals(name) {
                result = result.map { $0 + ", " + field.value } ?? field.value
            }
            return result
        }
        set {
            if let newValue {
                if let index = fields.firstIndex(where: { $0.name.caseInsensitiveEquals(name) }) {
                    fields[index].value = newValue
                    fields[(index + 1)...].removeAll { $0.name.caseInsensitiveEquals(name) }
                } else {
                    fields.append(Field(name: name, value: newValue))
                }
            } else {
                fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            }
        }
    }

    /// The values of the fields named exactly `name` (case and all), joined with commas; nil
    /// when there are none. DVR read a header so, by a dictionary lookup of the name as written.
    func value(exactlyNamed name: String) -> String? {
        let values = fields.filter { $0.name == name }.map(\.value)
        return values.isEmpty ? nil : values.joined(separator: ",")
    }

    /// Every value of `name`, for headers that repeat.
    public func values(for name: String) -> [String] {
        fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
    }

    package func contains(_ name: String) -> Bool {
        fields.contains { $0.name.caseInsensitiveEquals(name) }
    }

    mutating func remove(_ name: String) { self[name] = nil }

    /// Adds a field, keeping any earlier field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// One value per name (repeats joined), the shape `HTTPURLResponse` and `URLRequest` want.
    var dictionary: [String: String] {
        var result: [String: String] = [:]
        result.reserveCapacity(fields.count)
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let existing = spelling[key] {
                result[existing] = result[existing]! + ", " + field.value
            } else {
                spelling[key] = field.name
                result[field.name] = field.value
            }
        }
        return result
    }

    /// The `Content-Type` without parameters, lowercased (`application/json`).
    package var mediaType: String? {
        guard let value = self["Content-Type"] else { return nil }
        // Empty pieces kept: `;charset=utf-8` has an empty type, not the type `charset=utf-8`.
        let base = value.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? value
        return base.trimmingWhitespace().lowercased()
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension String {
    @inline(__always)
    func caseInsensitiveEquals(_ other: String) -> Bool {
        // Header names are ASCII: compare bytes, folding A-Z, without allocating.
        let lhs = utf8, rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        for (a, b) in zip(lhs, rhs) where a != b {
            let foldedA = (a >= 65 && a <= 90) ? a | 0x20 : a
            let foldedB = (b >= 65 && b <= 90) ? b | 0x20 : b
            if foldedA != foldedB { return false }
        }
        return true
    }

    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
