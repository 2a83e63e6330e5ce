import Foundation

// Small typed accessors over `JSONValue` that throw `StructureError`s with the path.
extension JSONValue {
    func members(at path: DecodingPath) throws -> [(key: String, value: JSONValue)] {
        guard case .object(let members) = self else {
            throw StructureError(path: path, problem: "expected an object, found \(kindName)", fix: "See the article \"The vinyl format\" in Gramophone's documentation for the shape of a track")
        }
        return members
    }

    func requiredString(_ key: String, at path: DecodingPath) throws -> String {
        guard let value = self[key] else {
            throw StructureError(path: path, problem: "missing \"\(key)\"", fix: "Every \(path.text.split(separator: ".").last.map(String.init) ?? "entry") needs a \"\(key)\" string")
        }
        return try value.string(at: path.key(key))
    }

    func optionalString(_ key: String, at path: DecodingPath) throws -> String? {
        guard let value = self[key], value != .null else { return nil }
        return try value.string(at: path.key(key))
    }

    func string(at path: DecodingPath) throws -> String {
        guard case .string(let text) = self else {
            throw StructureError(path: path, problem: "expected a string, found \(kindName)", fix: "Write the value as a string")
        }
        return text
    }

    func int(at path: DecodingPath) throws -> Int {
        guard case .number(let text) = self, let value = Int(text) ?? Double(text).flatMap({ $0 == $0.rounded() && abs($0) < 1e15 ? Int($0) : nil }) else {
            throw StructureError(path: path, problem: "expected a whole number, found \(kindName == "a number" ? "a fraction or a number too large" : kindName)", fix: "Use a whole number")
        }
        return value
    }

    func double(at path: DecodingPath) throws -> Double {
        guard case .number(let text) = self, let value = Double(text) else {
            throw StructureError(path: path, problem: "expected a number, found \(kindName)", fix: "Use a number")
        }
        return value
    }

    func url(_ key: String, at path: DecodingPath, required: Bool) throws -> URL? {
        guard let text = required ? try requiredString(key, at: path) : try optionalString(key, at: path) else { return nil }
        // Foundation gives ":://" an empty scheme; that is no more absolute than no scheme.
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            throw StructureError(path: path.key(key), problem: "\"\(text.prefix(200))\" is not an absolute URL", fix: "Write the full URL with its scheme, e.g. https://api.example.com/path")
        }
        return url
    }

    /// The value under `key` of this object; missing (absent or null) is an error whose fix is `fix`.
    func required(_ key: String, at path: DecodingPath, fix: String) throws -> JSONValue {
        guard let value = try members(at: path).first(where: { $0.key == key })?.value, value != .null else {
            throw StructureError(path: path, problem: "missing \"\(key)\"", fix: fix)
        }
        return value
    }

    /// The array under `key`, the document's list of `noun`; `fix` says what the document looks like.
    func array(_ key: String, at path: DecodingPath, of noun: String, fix: String) throws -> [JSONValue] {
        _ = try required(key, at: path, fix: fix)
        return try optionalArray(key, at: path, fix: "List the \(noun) in an array")
    }

    /// The array under `key` of this object, empty when there is none (or null); `fix` says how to list the items.
    func optionalArray(_ key: String, at path: DecodingPath, fix: String) throws -> [JSONValue] {
        guard let value = try members(at: path).first(where: { $0.key == key })?.value, value != .null else { return [] }
        guard case .array(let items) = value else {
            throw StructureError(path: path.key(key), problem: "expected an array, found \(value.kindName)", fix: fix)
        }
        return items
    }

    /// Bytes stored as UTF-8 text under `textKey` or as base64 under `base64Key`, and whether they
    /// were text; `fix` says how to store them when neither is there or the base64 is not valid.
    func bytes(text textKey: String, base64 base64Key: String, at path: DecodingPath, fix: String) throws -> (data: Data, isText: Bool) {
        if let text = try optionalString(textKey, at: path) {
            return (Data(text.utf8), true)
        }
        guard let base64 = try optionalString(base64Key, at: path) else {
            throw StructureError(path: path, problem: "missing \"\(textKey)\" or \"\(base64Key)\"", fix: fix)
        }
        guard let data = Data(base64Encoded: base64) else {
            throw StructureError(path: path.key(base64Key), problem: "not valid base64", fix: fix)
        }
        return (data, false)
    }

    /// A request's absolute URL (under `urlKey`), its method (GET when left out) and its headers.
    func requestHead(at path: DecodingPath, urlKey: String = "url", splittingLines: Bool = false) throws -> (url: URL, method: String, headers: Headers) {
        _ = try members(at: path)
        let url = try url(urlKey, at: path, required: true)!
        let method = try RecordedValue.method(optionalString("method", at: path) ?? "GET", at: path.key("method"))
        return (url, method, try (self["headers"] ?? .null).headers(at: path.key("headers"), splittingLines: splittingLines))
    }

    /// A response's `status`, checked by `RecordedValue.status`.
    func status(at path: DecodingPath, orZero: Bool = false) throws -> Int {
        let value = try required("status", at: path, fix: "Every response needs its HTTP status code, e.g. \"status\": 200")
        return try RecordedValue.status(value.int(at: path.key("status")), at: path.key("status"), orZero: orZero)
    }

    /// Headers as an object (string or list-of-strings values) or a HAR-style list of name/value pairs.
    /// A name or value holding CR, LF or NUL is refused (`HeaderLineBreaks`); with
    /// `splittingLines` (HAR) a value's lines become repeated fields instead.
    func headers(at path: DecodingPath, splittingLines: Bool = false) throws -> Headers {
        var headers = Headers()
        func add(_ name: String, _ value: String) throws {
            if splittingLines, !HeaderLineBreaks.isUnsafe(name), HeaderLineBreaks.isUnsafe(value) {
                for line in HeaderLineBreaks.lines(value) {
                    try HeaderLineBreaks.check(name: name, value: line, at: path)
                    headers.add(name: name, value: line)
                }
                return
            }
            try HeaderLineBreaks.check(name: name, value: value, at: path)
            headers.add(name: name, value: value)
        }
        switch self {
        case .null: return headers
        case .object(let members):
            for member in members {
                switch member.value {
                case .string(let value): try add(member.key, value)
                case .array(let values):
                    for (index, value) in values.enumerated() {
                        try add(member.key, try value.string(at: path.key(member.key).index(index)))
                    }
                case .number(let text): try add(member.key, text)
                default:
                    throw StructureError(path: path.key(member.key), problem: "expected a header value string, found \(member.value.kindName)", fix: "Quote the header value")
                }
            }
            return headers
        case .array(let items):
            for (index, item) in items.enumerated() {
                let itemPath = path.index(index)
                _ = try item.members(at: itemPath)
                try add(try item.requiredString("name", at: itemPath), try item.requiredString("value", at: itemPath))
            }
            return headers
        default:
            throw StructureError(path: path, problem: "expected an object of headers, found \(kindName)", fix: "Write headers as {\"Name\": \"value\"}")
        }
    }
}

extension Headers {
    /// Headers as a JSON object sorted by name; repeated names become a list.
    var jsonValue: JSONValue {
        let grouped = Dictionary(grouping: fields, by: \.name)
        return .object(
            grouped.keys.sorted().map { name in
                let values = grouped[name]!.map { JSONValue.string($0.value) }
                return (name, values.count == 1 ? values[0] : .array(values))
            })
    }
}
