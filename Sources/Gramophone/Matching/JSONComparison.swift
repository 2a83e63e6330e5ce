/// JSON as request matching sees it: ignored paths removed, then one canonical text per value
/// (sorted keys, one spelling per number, arrays optionally as multisets), so equal values hash
/// equal, and a path-by-path account of what differs for miss reports.
struct JSONComparison: Sendable, Hashable {
    /// Paths such as `meta.requestId` or `items[].timestamp` (`[]`: every element).
    var ignoring: [[Step]] = []
    var ignoringArrayOrder = false

    enum Step: Sendable, Hashable {
        case key(String)
        case everyElement
    }

    init(ignoring paths: [String] = [], ignoringArrayOrder: Bool = false) {
        // An empty path names no place; kept, it would ignore the whole body.
        ignoring = paths.map(Self.steps).filter { !$0.isEmpty }
        self.ignoringArrayOrder = ignoringArrayOrder
    }

    /// `a.b[].c` → key a, key b, every element, key c; a leading `[]` means the top-level array's elements.
    static func steps(_ path: String) -> [Step] {
        var steps: [Step] = []
        for segment in path.split(separator: ".", omittingEmptySubsequences: true) {
            var name = Substring(segment)
            var elements = 0
            while name.hasSuffix("[]") { name = name.dropLast(2); elements += 1 }
            if !name.isEmpty { steps.append(.key(String(name))) }
            steps.append(contentsOf: repeatElement(.everyElement, count: elements))
        }
        return steps
    }

    /// `value` with each place at `path` (in document order) replaced by what `change` makes of
    /// it, nil removing it: a member goes, and `items[]` alone leaves the array, emptied (its
    /// contents ignored, not its presence). Echoes write with it, `ignoring:` removes with it.
    static func rewriting(_ path: ArraySlice<Step>, in value: JSONValue, with change: (JSONValue) -> JSONValue?) -> JSONValue? {
        guard let step = path.first else { return change(value) }
        switch (step, value) {
        case (.key(let key), .object(let members)):
            return .object(members.compactMap { $0.key != key ? $0 : rewriting(path.dropFirst(), in: $0.value, with: change).map { (key: key, value: $0) } })
        case (.everyElement, .array(let items)):
            return .array(items.compactMap { rewriting(path.dropFirst(), in: $0, with: change) })
        default:
            return value
        }
    }

    /// Whether the place (array positions as `.everyElement`) falls under an ignored path.
    func isIgnored(_ printed: [Step]) -> Bool {
        ignoring.contains { pattern in
            pattern.count <= printed.count && zip(pattern, printed).allSatisfy { $0 == $1 }
        }
    }

    /// One text per value up to key order, number spelling and (if asked) array order, with
    /// every ignored path removed first.
    func canonicalText(_ value: JSONValue) -> String {
        var text = ""
        write(ignoring.reduce(value) { Self.rewriting($1[...], in: $0) { _ in nil } ?? $0 }, to: &text)
        return text
    }

    private func write(_ value: JSONValue, to text: inout String) {
        switch value {
        case .null: text += "null"
        case .bool(let flag): text += flag ? "true" : "false"
        case .number(let literal): text += Self.canonicalNumber(literal)
        // Older vinyls masked JSON with `<redacted>`: it is the one mask (Redaction.placeholder).
        case .string(let string): Self.quote(string == Redaction.legacyPlaceholder ? Redaction.placeholder : string, into: &text)
        case .array(let items):
            var parts = items.map { item -> String in
                var part = ""
                write(item, to: &part)
                return part
            }
            if ignoringArrayOrder { parts.sort() }
            text += "[" + parts.joined(separator: ",") + "]"
        case .object(let members):
            text += "{"
            for (position, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if position > 0 { text += "," }
                Self.quote(member.key, into: &text)
                text += ":"
                write(member.value, to: &text)
            }
            text += "}"
        }
    }

    /// `1`, `1.0` and `1e0` are one number, as `semanticallyEquals` has always said.
    static func canonicalNumber(_ literal: String) -> String {
        guard let value = Double(literal), value.isFinite else { return literal }
        if value == value.rounded(), abs(value) < 9_007_199_254_740_992 { return String(Int64(value)) }
        return String(value)
    }

    /// Quoted with `"`, `\` and control characters escaped (any escaping that tells every two
    /// strings apart would do), appended in runs: a body's key is built on every replay, and
    /// a quoted copy per string made the key a tenth slower.
    private static func quote(_ string: String, into text: inout String) {
        text += "\""
        var run = string.startIndex
        for index in string.utf8.indices {
            let byte = string.utf8[index]
            guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
            // An ASCII byte is a scalar of its own: the run before it is whole scalars (sliced as
            // scalars, not characters, which would round to a combining mark's base).
            text += Substring(string.unicodeScalars[run..<index])
            text += byte == 0x22 ? "\\\"" : byte == 0x5C ? "\\\\" : String(format: "\\u%04x", byte)
            run = string.utf8.index(after: index)
        }
        text += Substring(string.unicodeScalars[run...])
        text += "\""
    }

    // MARK: What differs

    /// One line per differing place, `items[2].id: 3 vs 4` under `prefix` (live value first),
    /// then `meta.requestId: ignored` for ignored places whose values differ.
    func differences(_ live: JSONValue, _ recorded: JSONValue, prefix: String) -> [String] {
        let (lines, ignored) = places(live, recorded, prefix: prefix)
        return lines.map(\.line) + ignored
    }

    /// The differing places with the path that would ignore each (`items[].id`; nil for the
    /// whole value), and the lines for ignored places.
    func places(_ live: JSONValue, _ recorded: JSONValue, prefix: String) -> (differing: [(line: String, path: String?)], ignored: [String]) {
        var lines: [(line: String, path: String?)] = [], ignored: [String] = []
        compare(live, recorded, printed: prefix, steps: [], lines: &lines, ignored: &ignored)
        return (lines, ignored)
    }

    /// `items[].id`, as `ignoring:` takes it.
    static func path(_ steps: [Step]) -> String? {
        guard !steps.isEmpty else { return nil }
        var text = ""
        for step in steps {
            switch step {
            case .key(let key): text += (text.isEmpty ? "" : ".") + key
            case .everyElement: text += "[]"
            }
        }
        return text
    }

    private func compare(_ a: JSONValue, _ b: JSONValue, printed: String, steps: [Step], lines: inout [(line: String, path: String?)], ignored: inout [String]) {
        if isIgnored(steps) {
            if !a.semanticallyEquals(b) { ignored.append("\(printed): ignored") }
            return
        }
        switch (a, b) {
        case let (.object(x), .object(y)):
            for key in BodyComparison.names(x.map(\.key), y.map(\.key)) {
                let path = printed.isEmpty ? key : printed + "." + key
                let left = a[key], right = b[key]
                let place = steps + [.key(key)]
                switch (left, right) {
                case let (left?, right?): compare(left, right, printed: path, steps: place, lines: &lines, ignored: &ignored)
                default:
                    // On one side only (the keys come from the two sides).
                    let line = "\(path): \(left.map(Self.show) ?? "(absent)") vs \(right.map(Self.show) ?? "(absent)")"
                    if isIgnored(place) { ignored.append("\(path): ignored") } else { lines.append((line, Self.path(place))) }
                }
            }
        case let (.array(x), .array(y)):
            if ignoringArrayOrder {
                if canonicalText(a) != canonicalText(b) {
                    lines.append(("\(printed): \(Self.show(a)) vs \(Self.show(b)) (in any order)", Self.path(steps + [.everyElement])))
                }
                return
            }
            if x.count != y.count { lines.append(("\(printed): \(x.count) vs \(y.count) elements", Self.path(steps + [.everyElement]))) }
            for (position, pair) in zip(x, y).enumerated() {
                compare(pair.0, pair.1, printed: "\(printed)[\(position)]", steps: steps + [.everyElement], lines: &lines, ignored: &ignored)
            }
        case let (.string(x), .string(y)) where Set([x, y]) == [Redaction.placeholder, Redaction.legacyPlaceholder]:
            return
        default:
            if !a.semanticallyEquals(b) { lines.append(("\(printed.isEmpty ? "(whole value)" : printed): \(Self.show(a)) vs \(Self.show(b))", Self.path(steps))) }
        }
    }

    /// A value as a miss report shows it: compact, at most 60 characters.
    static func show(_ value: JSONValue) -> String {
        shortened(String(decoding: JSONWriter.compact(value), as: UTF8.self))
    }

    /// At most 60 characters, cut with `…`.
    static func shortened(_ text: String) -> String { text.count > 60 ? String(text.prefix(57)) + "…" : text }
}
