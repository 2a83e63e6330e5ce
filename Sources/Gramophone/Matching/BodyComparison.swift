import Foundation

/// What "the same body" means, by content type: JSON as values, forms as a multiset of
/// fields, multipart part by part (boundaries ignored), anything else byte for byte.
///
/// Each body reduces to one canonical text, so equal bodies hash equal and the track index
/// answers `.body` by key.
struct BodyComparison: Sendable, Hashable {
    var json: JSONComparison
    /// Form field and multipart part names to leave out (the same `ignoring:` list).
    var names: Set<String>

    init(ignoring: [String] = [], ignoringArrayOrder: Bool = false) {
        json = JSONComparison(ignoring: ignoring, ignoringArrayOrder: ignoringArrayOrder)
        names = Set(ignoring)
    }

    /// A body read the way its content type says.
    enum Form {
        case json(JSONValue)
        case form([FormField])
        case multipart(MultipartBody)
        case bytes(Data)

        init(_ body: Data, headers: Headers) {
            let type = headers.mediaType ?? ""
            let untyped = type.isEmpty || type == "application/x-www-form-urlencoded"
            if type == "application/json" || type.hasSuffix("+json") || (untyped && Self.looksLikeJSON(body)), let value = try? JSONParser.parse(body) {
                self = .json(value)
            } else if type == "application/x-www-form-urlencoded" || (type.isEmpty && Self.looksLikeForm(body)) {
                self = .form(Self.fields(body))
            } else if let multipart = MultipartBody(body, headers: headers) {
                self = .multipart(multipart)
            } else {
                self = .bytes(body)
            }
        }

        /// URLSession sends a body without a type as a form (and may record that type): an
        /// untyped body that reads as one compares as one, so the two sides agree.
        private static func looksLikeForm(_ body: Data) -> Bool {
            body.contains(UInt8(ascii: "=")) && body.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        }

        /// Bodies sent without a type (or with the form type URLSession adds) that read as JSON
        /// compare as JSON, as they always have; a declared `text/plain` stays text.
        private static func looksLikeJSON(_ body: Data) -> Bool {
            let first = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
            return first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
        }

        /// `a=1&b=x+y` decoded (`+` is a space, then percent escapes), in any order.
        private static func fields(_ body: Data) -> [FormField] {
            String(decoding: body, as: UTF8.self).split(separator: "&").map { segment in
                let pair = segment.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return FormField(name: decode(pair[0]), value: pair.count > 1 ? decode(pair[1]) : nil)
            }.sorted()
        }

        private static func decode(_ text: Substring) -> String {
            let spaced = text.replacingOccurrences(of: "+", with: " ")
            return spaced.removingPercentEncoding ?? spaced
        }
    }

    /// A form field reads as a query parameter does: a name, and a value unless there is no `=`.
    typealias FormField = RequestParts.QueryItem

    /// The canonical text: equal for bodies this comparison calls equal, and only for them.
    func key(_ body: Data, headers: Headers) -> String {
        if body.isEmpty { return "" }
        switch Form(body, headers: headers) {
        case .json(let value):
            return "j" + json.canonicalText(value)
        case .form(let fields):
            var text = "f"
            for field in fields where !names.contains(field.name) {
                Self.append(field.name, to: &text)
                if let value = field.value { Self.append(value, to: &text) } else { text += "-" }
            }
            return text
        case .multipart(let multipart):
            var text = "m"
            for part in kept(multipart) {
                Self.append(part.name, to: &text)
                Self.append(part.filename ?? "", to: &text)
                Self.append(part.contentType.map(Self.mediaType) ?? "", to: &text)
                Self.append(partKey(part), to: &text)
            }
            return text
        case .bytes(let data):
            return "b" + data.base64EncodedString()
        }
    }

    /// For miss reports: `(ignoring: a, b, ignoringArrayOrder: true)`, or nothing.
    var summary: String {
        var options: [String] = []
        if !names.isEmpty { options.append("ignoring: " + names.sorted().joined(separator: ", ")) }
        if json.ignoringArrayOrder { options.append("ignoringArrayOrder: true") }
        return options.isEmpty ? "" : "(" + options.joined(separator: ", ") + ")"
    }

    /// Parts whose names are not ignored, sorted by name (the order of same-named parts kept):
    /// servers read parts by name, and client code may add them in any order.
    private func kept(_ multipart: MultipartBody) -> [MultipartBody.Part] {
        multipart.parts.filter { !names.contains($0.name) }.enumerated()
            .sorted { $0.element.name != $1.element.name ? $0.element.name < $1.element.name : $0.offset < $1.offset }
            .map(\.element)
    }

    /// A JSON part compares as JSON, anything else by its bytes.
    private func partKey(_ part: MultipartBody.Part) -> String {
        if let type = part.contentType.map(Self.mediaType), type == "application/json" || type.hasSuffix("+json"),
            let value = try? JSONParser.parse(part.content)
        {
            return json.canonicalText(value)
        }
        return part.content.base64EncodedString()
    }

    private static func mediaType(_ contentType: String) -> String {
        (contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? contentType).trimmingWhitespace().lowercased()
    }

    /// Length-prefixed, so no two lists of strings print alike.
    static func append(_ string: String, to text: inout String) {
        text += "\(string.utf8.count):" + string
    }

    // MARK: What differs

    /// One line per difference, in these terms: `body.items[2].id: 3 vs 4`,
    /// `body form field "q": a vs b`, `multipart part "avatar": 1,024 vs 1,025 bytes`;
    /// ignored places whose values differ are listed as `…: ignored`.
    func differences(live: Data, _ liveHeaders: Headers, recorded: Data, _ recordedHeaders: Headers) -> [String] {
        if key(live, headers: liveHeaders) == key(recorded, headers: recordedHeaders) { return [] }
        switch (Form(live, headers: liveHeaders), Form(recorded, headers: recordedHeaders)) {
        case let (.json(a), .json(b)) where !live.isEmpty && !recorded.isEmpty:
            return json.differences(a, b, prefix: "body")
        case let (.form(a), .form(b)):
            return formDifferences(a, b)
        case let (.multipart(a), .multipart(b)):
            return multipartDifferences(a, b)
        default:
            return [Self.bytesDifference(live, recorded)]
        }
    }

    private func formDifferences(_ a: [FormField], _ b: [FormField]) -> [String] {
        let differing = Self.differingValues(a, b)
        return differing.filter { !names.contains($0.name) }.map { "body form field \"\($0.name)\": \(Self.showValues($0.a)) vs \(Self.showValues($0.b))" }
            + differing.filter { names.contains($0.name) }.map { "body form field \"\($0.name)\": ignored" }
    }

    /// The names whose values differ between two lists of form fields or query parameters, in
    /// order of first appearance, with each side's values (no value as empty).
    static func differingValues(_ a: [FormField], _ b: [FormField]) -> [(name: String, a: [String], b: [String])] {
        names(a.map(\.name), b.map(\.name)).compactMap { name in
            let x = a.filter { $0.name == name }.map { $0.value ?? "" }, y = b.filter { $0.name == name }.map { $0.value ?? "" }
            return x == y ? nil : (name, x, y)
        }
    }

    private func multipartDifferences(_ a: MultipartBody, _ b: MultipartBody) -> [String] {
        var lines: [String] = [], ignored: [String] = []
        for name in Self.names(a.parts.map(\.name), b.parts.map(\.name)) {
            let x = a.parts.filter { $0.name == name }, y = b.parts.filter { $0.name == name }
            let label = "multipart part \"\(name)\""
            if names.contains(name) {
                if x != y { ignored.append("\(label): ignored") }
                continue
            }
            if x.count != y.count {
                lines.append("\(label): \(Self.count(x.count, "part")) vs \(Self.count(y.count, "part"))")
                continue
            }
            for (index, pair) in zip(x, y).enumerated() {
                let place = x.count > 1 ? "\(label) #\(index + 1)" : label
                if pair.0.filename != pair.1.filename { lines.append("\(place) filename: \(Self.show(pair.0.filename)) vs \(Self.show(pair.1.filename))") }
                if pair.0.contentType.map(Self.mediaType) != pair.1.contentType.map(Self.mediaType) {
                    lines.append("\(place) content type: \(Self.show(pair.0.contentType)) vs \(Self.show(pair.1.contentType))")
                }
                if pair.0.content != pair.1.content, partKey(pair.0) != partKey(pair.1) { lines.append(contentDifference(pair.0, pair.1, place: place)) }
            }
        }
        if lines.isEmpty && ignored.isEmpty {
            let x = a.parts.map(\.name), y = b.parts.map(\.name)
            lines.append(x == y ? "multipart parts \(x): the same parts, in another order" : "multipart parts: \(x) vs \(y)")
        }
        return lines + ignored
    }

    private func contentDifference(_ a: MultipartBody.Part, _ b: MultipartBody.Part, place: String) -> String {
        let short = a.content.count <= 60 && b.content.count <= 60
        if a.filename == nil, short, UTF8Validation.isValid(a.content), UTF8Validation.isValid(b.content) {
            return "\(place): \(String(decoding: a.content, as: UTF8.self)) vs \(String(decoding: b.content, as: UTF8.self))"
        }
        if a.content.count != b.content.count {
            return "\(place): \(Self.grouped(a.content.count)) vs \(Self.grouped(b.content.count)) bytes"
        }
        return "\(place): different content, \(Self.grouped(a.content.count)) bytes each"
    }

    /// A value as a miss report shows it: `(none)` when absent, `(empty)` when empty.
    static func show(_ text: String?) -> String { text.map { $0.isEmpty ? "(empty)" : $0 } ?? "(none)" }

    /// Names from both sides, each once, in order of first appearance.
    static func names(_ a: [String], _ b: [String]) -> [String] {
        var seen = Set<String>()
        return (a + b).filter { seen.insert($0).inserted }
    }

    static func showValues(_ values: [String]) -> String {
        switch values.count {
        case 0: return "(absent)"
        case 1: return values[0].isEmpty ? "(empty)" : values[0]
        default: return "[" + values.joined(separator: ", ") + "]"
        }
    }

    private static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// `1,024`: the same on every machine, whatever its locale.
    static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result += "," }
            result.append(digit)
        }
        return (number < 0 ? "-" : "") + result
    }

    /// `body: a vs b`; where the previews print alike, where the bytes part, or how each side
    /// read the same bytes (`sameBytes`).
    static func bytesDifference(_ live: Data, _ recorded: Data, sameBytes: @autoclosure () -> String = "read differently by each side's Content-Type") -> String {
        let a = preview(live), b = preview(recorded)
        if a != b { return "body: \(a) vs \(b)" }
        if live == recorded { return "body: the same \(grouped(live.count)) bytes, \(sameBytes())" }
        let offset = zip(live, recorded).prefix { $0 == $1 }.count
        return "body: \(a), differing from byte \(grouped(offset)) on (\(grouped(live.count)) vs \(grouped(recorded.count)) bytes)"
    }

    static func preview(_ data: Data) -> String {
        if data.isEmpty { return "(empty)" }
        if UTF8Validation.isValid(data) {
            let text = String(decoding: data.prefix(120), as: UTF8.self)
            return data.count > 120 ? text + "… (\(grouped(data.count)) bytes)" : text
        }
        return "<\(grouped(data.count)) bytes of binary>"
    }
}
