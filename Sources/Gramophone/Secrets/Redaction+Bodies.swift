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
        Redaction(steps: [
            .body { body, _, secrets in
                let first = body.first(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 })
                guard first == UInt8(ascii: "{") || first == UInt8(ascii: "["), let document = try? JSONParser.parse(body) else { return body }
                var changed = false
                let rewritten = rewrite(document, rule: rule, changed: &changed, secrets: &secrets)
                return changed ? JSONLayout.rewriting(body, from: document, to: rewritten) : body
            }
        ])
    }

    private static func rewrite(_ value: JSONValue, rule: (String) -> String??, changed: inout Bool, secrets: inout [String]) -> JSONValue {
        switch value {
        case .object(let members):
            var result: [(key: String, value: JSONValue)] = []
            for member in members {
                guard let decision = rule(member.key) else {
                    result.append((member.key, rewrite(member.value, rule: rule, changed: &changed, secrets: &secrets)))
                    continue
                }
                collectStrings(member.value, into: &secrets)
                if let replacement = decision {
                    if member.value != .string(replacement) { changed = true }
                    result.append((member.key, .string(replacement)))
                } else {
                    changed = true
                }
            }
            return .object(result)
        case .array(let items):
            return .array(items.map { rewrite($0, rule: rule, changed: &changed, secrets: &secrets) })
        default:
            return value
        }
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
        var changed = false
        var kept: [String] = []
        for pair in String(decoding: body, as: UTF8.self).split(separator: "&", omittingEmptySubsequences: false) {
            let item = RawQueryItem(pair)
            guard let decision = rule(item.decodedName.replacingOccurrences(of: "+", with: " "), item.decodedValue) else {
                kept.append(String(pair))
                continue
            }
            if let replacement = decision, item.value == replacement.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) {
                kept.append(String(pair))
                continue
            }
            secrets.append(contentsOf: item.secretValues)
            changed = true
            if let replacement = decision {
                kept.append(item.name + "=" + (replacement.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? ""))
            }
        }
        return changed ? Data(kept.joined(separator: "&").utf8) : body
    }
}
