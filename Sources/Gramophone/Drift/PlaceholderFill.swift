import Foundation

/// Puts real values back where redaction took them out, by name, before a drift check sends a
/// recorded request: query parameters, form fields and JSON members of that name get the
/// value; a credential header the default redaction removes is set.
struct PlaceholderFill {
    var values: [String: String]

    func filling(_ recorded: Track.Request) -> Track.Request {
        guard !values.isEmpty else { return recorded }
        var request = recorded
        for (name, value) in values.sorted(by: { $0.key < $1.key }) where Redaction.isSensitiveHeader(name) {
            request.headers[name] = value
        }
        request.url = filling(request.url)
        guard !request.body.isEmpty else { return request }
        let type = request.headers.mediaType ?? ""
        if type == "application/x-www-form-urlencoded" {
            request.body = Data(fillingPairs(String(decoding: request.body, as: UTF8.self), plusIsSpace: true).utf8)
        } else if type == "application/json" || type.hasSuffix("+json"), let json = try? JSONParser.parse(request.body) {
            request.body = Data(JSONWriter.compact(filling(json)))
        }
        return request
    }

    private func filling(_ url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false), let query = components.percentEncodedQuery else { return url }
        components.percentEncodedQuery = fillingPairs(query, plusIsSpace: false)
        return components.url ?? url
    }

    /// `a=1&b=2` with the named pairs' values replaced, the rest byte for byte.
    private func fillingPairs(_ text: String, plusIsSpace: Bool) -> String {
        text.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            var name = String(parts[0])
            if plusIsSpace { name = name.replacingOccurrences(of: "+", with: " ") }
            guard let value = values[name.removingPercentEncoding ?? name] else { return String(pair) }
            return parts[0] + "=" + (value.addingPercentEncoding(withAllowedCharacters: Self.valueCharacters) ?? value)
        }.joined(separator: "&")
    }

    private static let valueCharacters = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    private func filling(_ json: JSONValue) -> JSONValue {
        switch json {
        case .object(let members):
            return .object(members.map { member in (member.key, values[member.key].map(JSONValue.string) ?? filling(member.value)) })
        case .array(let items):
            return .array(items.map(filling))
        default:
            return json
        }
    }
}
