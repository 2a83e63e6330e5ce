import Foundation

/// What a drift check compares between a recorded response and a live one: status, content
/// type, the headers that change a client's behaviour, and the body's shape (JSON structure,
/// or event names and data shape for a `text/event-stream`); values only when asked.
enum ResponseShape {
    /// Headers whose presence changes what a client does; the rest (`Date`, `Server`,
    /// `X-Request-Id`, …) differ on every call and say nothing about the API.
    static let headersThatMatter = [
        "Content-Type", "Content-Encoding", "Content-Disposition", "Cache-Control", "Location", "ETag", "Last-Modified",
        "Vary", "Link", "Retry-After", "WWW-Authenticate", "Allow", "Access-Control-Allow-Origin",
    ]

    /// The drifts from `recorded` to `live`, status first, then headers, then the body.
    static func changes(from recorded: Track.Response, to live: Track.Response, comparingValues: Bool) -> [DriftChange] {
        var changes: [DriftChange] = []
        if recorded.status != live.status {
            changes.append(DriftChange(place: "status", recorded: String(recorded.status), live: String(live.status)))
        }
        // A header on one side only is a drift (shown as `present` unless values are compared);
        // one on both, when its value changed and values are compared, or its media type changed.
        let shown = { (value: String?) in comparingValues ? value : value.map { _ in "present" } }
        for name in headersThatMatter {
            let before = recorded.headers[name], after = live.headers[name]
            if name == "Content-Type", before != nil, after != nil, recorded.headers.mediaType != live.headers.mediaType {
                changes.append(DriftChange(place: "headers.Content-Type", recorded: recorded.headers.mediaType ?? before, live: live.headers.mediaType ?? after))
            } else if (before == nil) != (after == nil) || (comparingValues && before != after) {
                changes.append(DriftChange(place: "headers.\(name)", recorded: shown(before), live: shown(after)))
            }
        }
        changes += bodyChanges(from: recorded, to: live, comparingValues: comparingValues)
        return changes
    }

    private static func bodyChanges(from recorded: Track.Response, to live: Track.Response, comparingValues: Bool) -> [DriftChange] {
        if recorded.headers.mediaType == "text/event-stream", live.headers.mediaType == "text/event-stream" {
            return eventChanges(from: EventShape(recorded.body), to: EventShape(live.body), comparingValues: comparingValues)
        }
        let before = json(recorded), after = json(live)
        switch (before, after) {
        case let (before?, after?):
            var changes: [DriftChange] = []
            compare(Shape(before), Shape(after), place: "body", into: &changes)
            if comparingValues { compareValues(before, after, place: "body", into: &changes) }
            return changes
        case (.some, nil) where !live.body.isEmpty, (nil, .some) where !recorded.body.isEmpty:
            return [DriftChange(place: "body", recorded: jsonOrNot(before), live: jsonOrNot(after))]
        default:
            guard comparingValues, recorded.body != live.body else { return [] }
            return [DriftChange(place: "body", recorded: "\(recorded.body.count) bytes", live: "\(live.body.count) other bytes")]
        }
    }

    /// The body as JSON when the content type says JSON (or says nothing) and it parses.
    private static func json(_ response: Track.Response) -> JSONValue? {
        guard !response.body.isEmpty else { return nil }
        if let type = response.headers.mediaType, !BodyCoding.isJSON(type) { return nil }
        return try? JSONParser.parse(response.body)
    }

    // MARK: JSON shape

    /// A JSON value's structure: its kind, an object's keys, an array's element shape (all
    /// elements merged). `null` fits any shape: a field that is sometimes null has not drifted.
    indirect enum Shape {
        case null, boolean, number, string
        /// The elements' merged shape; nil for an empty array.
        case array(Shape?)
        case object([(key: String, value: Shape)])
        /// Elements of different kinds, by name.
        case mixed([String])

        init(_ value: JSONValue) {
            switch value {
            case .null: self = .null
            case .bool: self = .boolean
            case .number: self = .number
            case .string: self = .string
            case .array(let items):
                var merged: Shape?
                for item in items { merged = merged.map { Shape.merge($0, Shape(item)) } ?? Shape(item) }
                self = .array(merged)
            case .object(let members): self = .object(members.map { ($0.key, Shape($0.value)) })
            }
        }

        var name: String {
            switch self {
            case .null: return "null"
            case .boolean: return "boolean"
            case .number: return "number"
            case .string: return "string"
            case .array: return "array"
            case .object: return "object"
            case .mixed(let names): return names.joined(separator: " or ")
            }
        }

        static func merge(_ a: Shape, _ b: Shape) -> Shape {
            switch (a, b) {
            case (.null, _): return b
            case (_, .null): return a
            case let (.array(x), .array(y)):
                guard let x, let y else { return .array(x ?? y) }
                return .array(merge(x, y))
            case let (.object(x), .object(y)):
                var members = x
                for member in y {
                    if let index = members.firstIndex(where: { $0.key == member.key }) {
                        members[index].value = merge(members[index].value, member.value)
                    } else {
                        members.append(member)
                    }
                }
                return .object(members)
            default:
                return a.name == b.name ? a : .mixed(Set(a.names + b.names).sorted())
            }
        }

        private var names: [String] {
            if case .mixed(let names) = self { return names }
            return [name]
        }
    }

    /// Keys removed and added, kinds changed, element shapes changed, under `place`
    /// (`body.items[].price`).
    static func compare(_ recorded: Shape, _ live: Shape, place: String, into changes: inout [DriftChange]) {
        switch (recorded, live) {
        case (.null, _), (_, .null): return
        case let (.object(before), .object(after)):
            for member in before {
                let path = place + "." + member.key
                if let other = after.first(where: { $0.key == member.key }) {
                    compare(member.value, other.value, place: path, into: &changes)
                } else {
                    changes.append(DriftChange(place: path, recorded: member.value.name, live: nil))
                }
            }
            changes += after.filter { member in !before.contains { $0.key == member.key } }.map { DriftChange(place: place + "." + $0.key, recorded: nil, live: $0.value.name) }
        case let (.array(before), .array(after)):
            guard let before, let after else { return }
            compare(before, after, place: place + "[]", into: &changes)
        default:
            if recorded.name != live.name { changes.append(DriftChange(place: place, recorded: recorded.name, live: live.name)) }
        }
    }

    /// With `--values`: scalars that differ where the shapes agree (`body.items[0].price: 9.5 → 10`),
    /// and arrays whose length changed.
    static func compareValues(_ recorded: JSONValue, _ live: JSONValue, place: String, into changes: inout [DriftChange]) {
        switch (recorded, live) {
        case let (.object(before), .object(after)):
            for member in before {
                if let other = after.first(where: { $0.key == member.key }) {
                    compareValues(member.value, other.value, place: place + "." + member.key, into: &changes)
                }
            }
        case let (.array(before), .array(after)):
            if before.count != after.count {
                changes.append(DriftChange(place: place, recorded: elements(before.count), live: elements(after.count)))
            }
            for (position, pair) in zip(before, after).enumerated() {
                compareValues(pair.0, pair.1, place: "\(place)[\(position)]", into: &changes)
            }
        case (.number, .number), (.string, .string), (.bool, .bool), (.null, _), (_, .null):
            if !recorded.semanticallyEquals(live) {
                changes.append(DriftChange(place: place, recorded: JSONComparison.show(recorded), live: JSONComparison.show(live)))
            }
        default:
            return  // a kind change, reported by the shape
        }
    }

    private static func elements(_ count: Int) -> String { "\(count) element\(count == 1 ? "" : "s")" }

    private static func jsonOrNot(_ value: Any?) -> String { value == nil ? "not JSON" : "JSON" }

    // MARK: Event streams

    /// A `text/event-stream` body's event names, in order of first appearance, and each
    /// name's merged data shape (events whose data is not JSON, such as `[DONE]`, add none).
    struct EventShape {
        var names: [String] = []
        var data: [String: Shape] = [:]
        var values: [String: [JSONValue]] = [:]

        init(_ body: Data) {
            let text = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            for block in text.components(separatedBy: "\n\n") {
                var name = "message", lines: [String] = [], any = false
                for line in block.split(separator: "\n", omittingEmptySubsequences: true) {
                    if line.hasPrefix("event:") {
                        name = line.dropFirst(6).trimmingCharacters(in: .whitespaces)
                        any = true
                    } else if line.hasPrefix("data:") {
                        var value = line.dropFirst(5)
                        if value.first == " " { value = value.dropFirst() }
                        lines.append(String(value))
                        any = true
                    }
                }
                guard any else { continue }
                if !names.contains(name) { names.append(name) }
                guard let value = try? JSONParser.parse(Data(lines.joined(separator: "\n").utf8)) else { continue }
                data[name] = data[name].map { Shape.merge($0, Shape(value)) } ?? Shape(value)
                values[name, default: []].append(value)
            }
        }
    }

    private static func eventChanges(from recorded: EventShape, to live: EventShape, comparingValues: Bool) -> [DriftChange] {
        var changes = recorded.names.filter { !live.names.contains($0) }.map { DriftChange(place: "events.\($0)", recorded: "present", live: nil) }
        changes += live.names.filter { !recorded.names.contains($0) }.map { DriftChange(place: "events.\($0)", recorded: nil, live: "present") }
        for name in recorded.names where live.names.contains(name) {
            let place = "events.\(name).data"
            switch (recorded.data[name], live.data[name]) {
            case let (before?, after?): compare(before, after, place: place, into: &changes)
            case (.some, nil), (nil, .some): changes.append(DriftChange(place: place, recorded: jsonOrNot(recorded.data[name]), live: jsonOrNot(live.data[name])))
            case (nil, nil): break
            }
            if comparingValues, let before = recorded.values[name], let after = live.values[name] {
                compareValues(.array(before), .array(after), place: place, into: &changes)
            }
        }
        return changes
    }
}
