import Foundation

/// The GraphQL operations a request carries: a POST JSON body (one object, or an array for a
/// batch) or a GET `?query=&operationName=&variables=`. Every GraphQL request has the same
/// method and URL, so these are what tell two requests apart.
struct GraphQLRequest: Sendable {
    struct Operation: Sendable {
        /// `operationName`, else the name of the document's first operation; empty when anonymous.
        var name: String
        /// The document with comments, commas and insignificant whitespace removed.
        var document: String?
        /// `extensions.persistedQuery.sha256Hash`: a persisted query matches by hash alone.
        var hash: String?
        var variables: JSONValue?
    }

    var operations: [Operation]

    /// Nil when the request carries no GraphQL operation.
    init?(_ request: Track.Request) {
        if let items = URLComponents(url: request.url, resolvingAgainstBaseURL: true)?.queryItems,
            items.contains(where: { $0.name == "query" || $0.name == "extensions" })
        {
            func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
            func json(_ name: String) -> JSONValue? { value(name).flatMap { try? JSONParser.parse(Data($0.utf8)) } }
            guard let operation = Self.operation(query: value("query"), name: value("operationName"), variables: json("variables"), extensions: json("extensions")) else { return nil }
            operations = [operation]
            return
        }
        guard !request.body.isEmpty, let body = try? JSONParser.parse(request.body) else { return nil }
        let objects = body.arrayValue ?? [body]
        let operations = objects.compactMap { object in
            Self.operation(
                query: object["query"]?.stringValue, name: object["operationName"]?.stringValue,
                variables: object["variables"], extensions: object["extensions"])
        }
        guard !operations.isEmpty, operations.count == objects.count else { return nil }
        self.operations = operations
    }

    private static func operation(query: String?, name: String?, variables: JSONValue?, extensions: JSONValue?) -> Operation? {
        let hash = extensions?["persistedQuery"]?["sha256Hash"]?.stringValue
        guard query != nil || hash != nil else { return nil }
        let document = query.map(normalised)
        let named = name.flatMap { $0.isEmpty ? nil : $0 } ?? document.flatMap(firstOperationName) ?? ""
        // `"variables": null` and no variables are the same request.
        let variables: JSONValue? = variables.flatMap { if case .null = $0 { return nil } else { return $0 } }
        return Operation(name: named, document: document, hash: hash, variables: variables)
    }

    /// One text for documents that differ only in whitespace, commas and comments.
    static func normalised(_ document: String) -> String {
        let scalars = Array(document.unicodeScalars)
        var output = String.UnicodeScalarView()
        var pendingSpace = false
        var index = 0
        func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "_" || scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "#":
                while index < scalars.count, scalars[index] != "\n", scalars[index] != "\r" { index += 1 }
                pendingSpace = true
            case " ", "\t", "\n", "\r", ",", "\u{FEFF}":
                pendingSpace = true
                index += 1
            case "\"":
                // Strings are copied as written: their whitespace is content.
                let block = index + 2 < scalars.count && scalars[index + 1] == "\"" && scalars[index + 2] == "\""
                let start = index
                index += block ? 3 : 1
                while index < scalars.count {
                    if scalars[index] == "\\" { index += 2; continue }
                    if block {
                        if index + 2 < scalars.count, scalars[index] == "\"", scalars[index + 1] == "\"", scalars[index + 2] == "\"" { index += 3; break }
                    } else if scalars[index] == "\"" || scalars[index] == "\n" {
                        index += 1
                        break
                    }
                    index += 1
                }
                if pendingSpace, let last = output.last, isNameScalar(last) { output.append(" ") }
                output.append(contentsOf: scalars[start..<min(index, scalars.count)])
                pendingSpace = false
            default:
                if pendingSpace, let last = output.last, isNameScalar(last), isNameScalar(scalar) { output.append(" ") }
                output.append(scalar)
                pendingSpace = false
                index += 1
            }
        }
        return String(output)
    }

    /// `query GetUser(…)` → GetUser, from a normalised document.
    private static func firstOperationName(_ document: String) -> String? {
        for keyword in ["query ", "mutation ", "subscription "] where document.hasPrefix(keyword) {
            let name = document.dropFirst(keyword.count).prefix { $0 == "_" || $0.isLetter || $0.isNumber }
            return name.isEmpty ? nil : String(name)
        }
        return nil
    }

    /// The canonical text `.graphQL` compares and the index hashes; nil for a request that
    /// is not GraphQL (compared then as a body).
    static func key(_ request: Track.Request, _ comparison: JSONComparison) -> String? {
        guard let graphQL = GraphQLRequest(request) else { return nil }
        var text = "q"
        for operation in graphQL.operations {
            BodyComparison.append(operation.name, to: &text)
            BodyComparison.append(operation.hash.map { "#" + $0 } ?? operation.document ?? "", to: &text)
            BodyComparison.append(operation.variables.map(comparison.canonicalText) ?? "", to: &text)
        }
        return text
    }

    /// Whether a line of `differences` says that nothing lines up (one side is not GraphQL, or
    /// the batches differ in size): a miss report ranks such a track below any whose operations compare.
    static func isUnaligned(_ line: String) -> Bool {
        line.hasPrefix("graphQL: ") || line.hasPrefix("graphQL operations: ")
    }

    /// `graphQL operation: GetUser vs GetUsers`, `graphQL variables.id: 1 vs 2`, …
    static func differences(live: Track.Request, recorded: Track.Request, _ comparison: JSONComparison) -> [String] {
        switch (GraphQLRequest(live), GraphQLRequest(recorded)) {
        case (nil, nil):
            return []
        case let (a?, b?):
            if a.operations.count != b.operations.count {
                return ["graphQL operations: \(a.operations.count) vs \(b.operations.count) in the batch"]
            }
            return places(a, b, comparison).map(\.line)
        case let (a, b):
            let names = [a, b].map { $0?.operations.map(\.name).joined(separator: ", ") ?? "not a GraphQL request" }
            return ["graphQL: \(names[0]) vs \(names[1])"]
        }
    }

    /// How two batches of one size differ, operation by operation under `graphQL` (`graphQL[1]`
    /// in a batch of several): name, query, then the variables' places as
    /// `JSONComparison.places` gives them, each with the path `ignoring:` would take (nil where
    /// none can, and for the ignored places' lines).
    static func places(_ a: GraphQLRequest, _ b: GraphQLRequest, _ comparison: JSONComparison) -> [(line: String, path: String?)] {
        var places: [(line: String, path: String?)] = []
        for (index, (x, y)) in zip(a.operations, b.operations).enumerated() {
            let label = a.operations.count > 1 ? "graphQL[\(index)]" : "graphQL"
            if x.name != y.name { places.append(("\(label) operation: \(show(x.name)) vs \(show(y.name))", nil)) }
            switch (x.hash, y.hash) {
            case let (p?, q?):
                if p != q { places.append(("\(label) persisted query: \(p.prefix(12))… vs \(q.prefix(12))…", nil)) }
            case (nil, nil):
                if x.document != y.document { places.append(("\(label) query: \(preview(x.document)) vs \(preview(y.document))", nil)) }
            default:
                places.append(("\(label) query: \(x.hash.map { "persisted \($0.prefix(12))…" } ?? preview(x.document)) vs \(y.hash.map { "persisted \($0.prefix(12))…" } ?? preview(y.document))", nil))
            }
            switch (x.variables, y.variables) {
            case let (p?, q?):
                let variables = comparison.places(p, q, prefix: "\(label) variables")
                places += variables.differing + variables.ignored.map { ($0, nil) }
            case (nil, nil): break
            case let (p, q): places.append(("\(label) variables: \(p.map(JSONComparison.show) ?? "(none)") vs \(q.map(JSONComparison.show) ?? "(none)")", nil))
            }
        }
        return places
    }

    private static func show(_ name: String) -> String { name.isEmpty ? "(anonymous)" : name }

    private static func preview(_ document: String?) -> String { document.map(JSONComparison.shortened) ?? "(none)" }
}
