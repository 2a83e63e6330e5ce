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
            throw StructureError(path: path, problem: "expected a string, found \(kindName)", fix: "Quote the value")
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
        let text: String?
        if required { text = try requiredString(key, at: path) } else { text = try optionalString(key, at: path) }
        guard let text else { return nil }
        // Foundation gives ":://" an empty scheme; that is no more absolute than no scheme.
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else {
            throw StructureError(path: path.key(key), problem: "\"\(text.prefix(200))\" is not an absolute URL", fix: "Write the full URL with its scheme, e.g. https://api.example.com/path")
        }
        return url
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
        var grouped: [String: [String]] = [:]
        var order: [String] = []
        for field in fields {
            if grouped[field.name] == nil { order.append(field.name) }
            grouped[field.name, default: []].append(field.value)
        }
        let members = order.sorted().map { name -> (key: String, value: JSONValue) in
            let values = grouped[name]!
            return (name, values.count == 1 ? .string(values[0]) : .array(values.map(JSONValue.string)))
        }
        return .object(members)
    }
}
