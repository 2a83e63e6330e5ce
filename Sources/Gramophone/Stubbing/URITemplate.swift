import Foundation

/// An RFC 6570 URI template (levels 1 to 3) read backwards: does a URL fit the template, and
/// what values did the variables take?
///
/// Supported expressions: `{var}` (simple), `{+var}` (reserved), `{#var}` (fragment),
/// `{.var}` (labels), `{/var}` (path segments), `{;var}` (path parameters), `{?var}` and
/// `{&var}` (query), each with one or more comma-separated variables. The explode (`*`) and
/// prefix (`:n`) modifiers are accepted and ignored: a captured list is returned as text.
///
/// A template that starts with `/` or `{/` is matched against the URL's path and query; any
/// other template against the whole URL. Query expressions match parameters by name in any
/// order; a parameter the template does not name makes the URL not fit. A template without
/// query expressions ignores the query. Captured values are percent-decoded.
struct URITemplate: Sendable, CustomStringConvertible {
    let text: String
    private let regex: RegexBox
    /// For each capture group of `regex`, the expression it belongs to.
    private let expressions: [Expression]
    private let queryVariables: [String]
    private let matchesPathOnly: Bool

    struct Expression: Sendable {
        var op: Character?
        var variables: [String]
    }

    /// Why a template could not be read.
    struct SyntaxError: Error, Sendable {
        var message: String
    }

    init(_ text: String) throws(SyntaxError) {
        self.text = text
        matchesPathOnly = text.hasPrefix("/") || text.hasPrefix("{/")
        var pattern = "^"
        var expressions: [Expression] = []
        var queryVariables: [String] = []
        var sawQuery = false
        var literalQuery = false
        var rest = Substring(text)
        while !rest.isEmpty {
            guard let open = rest.firstIndex(of: "{") else {
                pattern += NSRegularExpression.escapedPattern(for: String(rest))
                break
            }
            if rest[..<open].contains("}") {
                throw SyntaxError(message: "a \"}\" with no \"{\" before it")
            }
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
            if rest[..<open].contains("?") { literalQuery = true }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw SyntaxError(message: "the expression starting at \"\(rest[open...].prefix(20))\" has no closing \"}\"")
            }
            var body = rest[rest.index(after: open)..<close]
            rest = rest[rest.index(after: close)...]
            var op: Character?
            if let first = body.first, "+#./;?&".contains(first) {
                op = first
                body = body.dropFirst()
            }
            let variables = try body.split(separator: ",", omittingEmptySubsequences: false).map { raw throws(SyntaxError) -> String in
                var name = Substring(raw)
                if let colon = name.firstIndex(of: ":") { name = name[..<colon] }
                if name.hasSuffix("*") { name = name.dropLast() }
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "%" }) else {
                    throw SyntaxError(message: "\"{\(op.map(String.init) ?? "")\(body)}\" has an invalid variable name \"\(raw)\"")
                }
                return String(name)
            }
            switch op {
            case "?", "&":
                // Query parameters are matched by name after the regex, in any order.
                queryVariables += variables
                if !sawQuery {
                    // After a literal `?fixed=1`, `{&page}` continues the query with `&`.
                    pattern += literalQuery ? "((?:&[^#]*)?)" : "(?:\\?([^#]*))?"
                }
                sawQuery = true
                expressions.append(Expression(op: "?", variables: []))
                continue
            case nil: pattern += "([^/?#]*)"
            case "+": pattern += "([^?#]*?)"
            case "#": pattern += "(?:#(.*))?"
            case ".": pattern += "((?:\\.[^/?#.]*)*)"
            case "/": pattern += "((?:/[^/?#]*)*)"
            case ";": pattern += "((?:;[^/?#;]*)*)"
            default: break
            }
            expressions.append(Expression(op: op, variables: variables))
        }
        // A template without query expressions says nothing about the query.
        if !sawQuery && !literalQuery { pattern += "(?:\\?[^#]*)?" }
        pattern += "(?:#.*)?$"
        do {
            regex = RegexBox(try NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]))
        } catch {
            throw SyntaxError(message: "it could not be compiled (\(error))")
        }
        self.expressions = expressions
        self.queryVariables = queryVariables
    }

    var description: String { text }

    /// The variables' values when `url` fits the template, or nil.
    func match(_ url: URL) -> [String: String]? {
        var subject = url.absoluteString
        if matchesPathOnly {
            let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
            subject = components?.percentEncodedPath ?? url.path
            if subject.isEmpty { subject = "/" }
            if let query = components?.percentEncodedQuery { subject += "?" + query }
        }
        let range = NSRange(subject.startIndex..., in: subject)
        guard let result = regex.value.firstMatch(in: subject, options: [], range: range) else { return nil }
        var values: [String: String] = [:]
        for (offset, expression) in expressions.enumerated() {
            // An expression that took part in no match (NSNotFound) captured nothing.
            let captured = Range(result.range(at: offset + 1), in: subject).map { String(subject[$0]) } ?? ""
            if expression.op == "?" {
                guard queryValues(captured, into: &values) else { return nil }
            } else {
                assign(captured, of: expression, into: &values)
            }
        }
        return values
    }

    private func assign(_ captured: String, of expression: Expression, into values: inout [String: String]) {
        var pieces: [String]
        switch expression.op {
        case .some(let op) where op == "." || op == "/" || op == ";":
            pieces = captured.split(separator: op, omittingEmptySubsequences: false).dropFirst().map(String.init)
        default:
            pieces = captured.isEmpty ? [] : captured.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        }
        if expression.op == ";" {
            // `;name=value` pairs: take values by name.
            for piece in pieces {
                let pair = piece.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = String(pair[0])
                if expression.variables.contains(name) { values[name] = pair.count > 1 ? Self.decode(String(pair[1])) : "" }
            }
            return
        }
        let separator = expression.op == "/" ? "/" : expression.op == "." ? "." : ","
        for (index, name) in expression.variables.enumerated() where index < pieces.count {
            // The last variable takes what is left: `{/path}` on `/a/b/c` captures `a/b/c`.
            let value = index == expression.variables.count - 1 ? pieces[index...].joined(separator: separator) : pieces[index]
            values[name] = Self.decode(value)
        }
    }

    private func queryValues(_ query: String, into values: inout [String: String]) -> Bool {
        guard !query.isEmpty else { return true }
        for item in query.split(separator: "&") {
            let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(String(pair[0]), plusIsSpace: true)
            guard queryVariables.contains(name) else { return false }
            values[name] = pair.count > 1 ? Self.decode(String(pair[1]), plusIsSpace: true) : ""
        }
        return true
    }

    /// `+` means a space only in a query (form encoding); in a path it is itself.
    private static func decode(_ text: String, plusIsSpace: Bool = false) -> String {
        let spaced = plusIsSpace ? text.replacingOccurrences(of: "+", with: " ") : text
        return spaced.removingPercentEncoding ?? spaced
    }
}

/// `NSRegularExpression` is immutable and documented as safe to share between threads.
struct RegexBox: @unchecked Sendable {
    let value: NSRegularExpression
    init(_ value: NSRegularExpression) { self.value = value }
}
