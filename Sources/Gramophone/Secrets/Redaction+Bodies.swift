import Foundation

extension Redaction {
    /// Removes the named keys, at any depth, from JSON request and response bodies (names
    /// compared ignoring case). A body that is not JSON, or has none of the keys, keeps its bytes.
    public static func jsonKeys(removing names: [String]) -> Redaction {
        jsonRewrite(removing(names))
    }

    /// Replaces the values of the named keys, at any depth, in JSON bodies with strings:
    /// `.jsonKeys(replacing: ["password": Redaction.placeholder])`.
    public static func jsonKeys(replacing values: [String: String]) -> Redaction {
        jsonRewrite(replacing(values)).writing(values.values)
    }

    /// Removes the named fields from `application/x-www-form-urlencoded` bodies.
    public static func formFields(removing names: [String]) -> Redaction {
        formRewrite(removing(names))
    }

    /// Replaces the values of the named fields in `application/x-www-form-urlencoded` bodies.
    public static func formFields(replacing values: [String: String]) -> Redaction {
        formRewrite(replacing(values)).writing(values.values)
    }

    // MARK: Rewriting

    /// `rule(key)` decides each member at any depth: removed, replaced, or kept and looked into.
    private static func jsonRewrite(_ rule: @escaping Rule) -> Redaction {
        Redaction(steps: [.body { body, _, secrets in rewriteJSON(body, secrets: &secrets) { key, _, _ in rule(key).map { $0.map(JSONValue.string) } } ?? body }])
    }

    /// `body`'s JSON document with each object member, at any depth, as `decide` says (given its
    /// key, its path from the top when `paths`, else "", and its value): nil looks into it,
    /// `.some(nil)` removes it, `.some(new)` puts `new` in its place, and the strings and numbers
    /// of a member so changed are added to `secrets`. `leaf` sees the strings looked into. The
    /// bytes stay where nothing changed; nil when the body is not JSON.
    static func rewriteJSON(
        _ body: Data, paths: Bool = false, secrets: inout [String], leaf: (String, inout [String]) -> Void = { _, _ in },
        decide: (String, String, JSONValue) -> JSONValue??
    ) -> Data? {
        let first = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
        guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let document = try? JSONParser.parse(body) else { return nil }
        var changed = false
        func rewrite(_ value: JSONValue, path: String) -> JSONValue {
            switch value {
            case .object(let members):
                var result: [(key: String, value: JSONValue)] = []
                for member in members {
                    let memberPath = !paths ? "" : path.isEmpty ? member.key : path + "." + member.key
                    guard let decision = decide(member.key, memberPath, member.value) else {
                        result.append((member.key, rewrite(member.value, path: memberPath)))
                        continue
                    }
                    if decision != member.value {
                        changed = true
                        collectStrings(member.value, into: &secrets)
                    }
                    if let new = decision { result.append((member.key, new)) }
                }
                return .object(result)
            case .array(let items):
                return .array(items.enumerated().map { rewrite($1, path: paths ? path + "[\($0)]" : "") })
            case .string(let text):
                leaf(text, &secrets)
                return value
            case .number, .bool, .null:
                return value
            }
        }
        let rewritten = rewrite(document, path: "")
        return changed ? JSONLayout.rewriting(body, from: document, to: rewritten) : body
    }

    private static func collectStrings(_ value: JSONValue, into secrets: inout [String]) {
        switch value {
        case .string(let text): secrets.append(text)
        case .number(let text): secrets.append(text)
        case .array(let items): for item in items { collectStrings(item, into: &secrets) }
        case .object(let members): for member in members { collectStrings(member.value, into: &secrets) }
        case .null, .bool: break
        }
    }

    /// Same decisions as `jsonRewrite`, over `name=value` pairs.
    private static func formRewrite(_ rule: @escaping Rule) -> Redaction {
        Redaction(steps: [.body { body, headers, secrets in rewriteForm(body, headers: headers, secrets: &secrets) { name, _ in rule(name) } }])
    }

    static func rewriteForm(_ body: Data, headers: Headers, secrets: inout [String], _ rule: (String, String?) -> String??) -> Data {
        guard headers.mediaType == "application/x-www-form-urlencoded", !body.isEmpty, UTF8Validation.isValid(body) else { return body }
        let kept = rewritePairs(String(decoding: body, as: UTF8.self), secrets: &secrets) { item, secrets in
            let decision = rule(item.decodedName.replacingOccurrences(of: "+", with: " "), item.decodedValue)
            if decision != nil { secrets.append(contentsOf: item.secretValues) }
            return decision
        }
        return kept.map { Data($0.joined(separator: "&").utf8) } ?? body
    }
}
