import Foundation

/// Two recordings of the same flow compared track by track (`gramophone diff`): each field
/// that differs, and the matching strategy under which B's requests would find A's tracks.
package struct RecordingDiff: Sendable {
    package struct Field: Sendable {
        /// `query`, `header`, `body`, `form`, `multipart`, `graphQL`.
        package var kind: String
        /// What `ignoring:`/`excluding:` would name to leave it out; nil when nothing can.
        package var name: String?
        /// As a miss report prints it, A's value first.
        package var line: String
    }

    package struct Pair: Sendable {
        package var a: Int
        package var b: Int
        package var method: String
        package var url: String
        package var fields: [Field]
    }

    /// Paired tracks that differ, in B's order.
    package var pairs: [Pair] = []
    package var pairedCount = 0
    package var onlyInA: [Int] = []
    package var onlyInB: [Int] = []
    /// `[.method, .url, .body]`: the strictest strategy that leaves out only what differed.
    package var matching = ""

    package var isIdentical: Bool { pairs.isEmpty && onlyInA.isEmpty && onlyInB.isEmpty }
    /// Differences no `ignoring:` can leave out (a GraphQL operation, a binary body, …).
    package var unignorable: [String] { pairs.flatMap { pair in pair.fields.filter { $0.name == nil }.map { "#\(pair.b): \($0.line)" } } }

    package init(_ a: Vinyl, _ b: Vinyl) {
        // The k-th request for a method, host and path in B pairs with the k-th in A.
        func key(_ request: Track.Request) -> String {
            let parts = RequestParts(request)
            return "\(parts.method) \(parts.scheme)://\(parts.host)\(parts.port.map { ":\($0)" } ?? "")\(parts.path)"
        }
        var waiting: [String: [Int]] = [:]
        for (index, track) in a.tracks.enumerated() { waiting[key(track.request), default: []].append(index) }
        var usedA = Set<Int>()
        var graphQL = false
        var queryNames: [String] = [], headerNames: [String] = [], bodyNames: [String] = []
        for (index, track) in b.tracks.enumerated() {
            let k = key(track.request)
            guard var candidates = waiting[k], !candidates.isEmpty else { onlyInB.append(index); continue }
            let partner = candidates.removeFirst()
            waiting[k] = candidates
            usedA.insert(partner)
            pairedCount += 1
            let recorded = a.tracks[partner].request, live = track.request
            if GraphQLRequest(recorded) != nil || GraphQLRequest(live) != nil { graphQL = true }
            let fields = Self.fields(recorded, live)
            for field in fields {
                guard let name = field.name else { continue }
                switch field.kind {
                case "query": if !queryNames.contains(name) { queryNames.append(name) }
                case "header": if !headerNames.contains(where: { $0.lowercased() == name.lowercased() }) { headerNames.append(name) }
                default: if !bodyNames.contains(name) { bodyNames.append(name) }
                }
            }
            if !fields.isEmpty { pairs.append(Pair(a: partner, b: index, method: live.method, url: live.url.absoluteString, fields: fields)) }
        }
        onlyInA = a.tracks.indices.filter { !usedA.contains($0) }

        func list(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        var matchers = [".method"]
        matchers += queryNames.isEmpty ? [".url"] : [".host", ".path", ".query(ignoring: \(list(queryNames)))"]
        matchers.append(headerNames.isEmpty ? ".allHeaders()" : ".allHeaders(excluding: \(list(headerNames)))")
        let body = graphQL ? "graphQL" : "body"
        matchers.append(bodyNames.isEmpty ? ".\(body)" : ".\(body)(ignoring: \(list(bodyNames)))")
        matching = "[" + matchers.joined(separator: ", ") + "]"
    }

    /// What differs between A's request and B's, field by field.
    static func fields(_ a: Track.Request, _ b: Track.Request) -> [Field] {
        var fields: [Field] = []
        let aParts = RequestParts(a), bParts = RequestParts(b)
        for (name, x, y) in BodyComparison.differingValues(aParts.query, bParts.query) {
            fields.append(Field(kind: "query", name: name, line: "query \(name): \(BodyComparison.showValues(x)) vs \(BodyComparison.showValues(y))"))
        }
        for header in Matcher.differingHeaders(a.headers, b.headers) {
            fields.append(Field(kind: "header", name: header.name, line: "header \(header.name): \(header.a ?? "(none)") vs \(header.b ?? "(none)")"))
        }
        fields += bodyFields(a, b)
        return fields
    }

    private static func bodyFields(_ a: Track.Request, _ b: Track.Request) -> [Field] {
        let comparison = BodyComparison()
        if let x = GraphQLRequest(a), let y = GraphQLRequest(b), x.operations.count == y.operations.count {
            return GraphQLRequest.places(x, y, comparison.json).map { Field(kind: "graphQL", name: $0.path, line: $0.line) }
        }
        guard comparison.key(a.body, headers: a.headers) != comparison.key(b.body, headers: b.headers) else { return [] }
        switch (BodyComparison.Form(a.body, headers: a.headers), BodyComparison.Form(b.body, headers: b.headers)) {
        case let (.json(x), .json(y)) where !a.body.isEmpty && !b.body.isEmpty:
            return comparison.json.places(x, y, prefix: "body").differing.map { Field(kind: "body", name: $0.path, line: $0.line) }
        case (.form, .form), (.multipart, .multipart):
            return comparison.differences(live: a.body, a.headers, recorded: b.body, b.headers).map { line in
                // `body form field "q": …`, `multipart part "avatar" filename: …`: the quoted name.
                let name = line.split(separator: "\"", maxSplits: 2, omittingEmptySubsequences: false).dropFirst().first.map(String.init)
                return Field(kind: line.hasPrefix("multipart") ? "multipart" : "form", name: line.hasPrefix("multipart parts:") ? nil : name, line: line)
            }
        default:
            return [Field(kind: "body", name: nil, line: "body: \(BodyComparison.preview(a.body)) vs \(BodyComparison.preview(b.body))")]
        }
    }
}
