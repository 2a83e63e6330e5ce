/// A small argument parser: with no trait enabled the package resolves no dependency, and the
/// CLI, built without traits, needs none either.
///
/// Understands `--flag`, `--option value`, `--option=value`, `-h`, and `--` to end options.
struct Arguments: Equatable {
    var positional: [String] = []
    var flags: Set<String> = []
    var options: [String: String] = [:]
    /// Every value of each option, in order, for options that may repeat (`--header`).
    var allOptions: [String: [String]] = [:]

    /// - Parameters:
    ///   - flagNames: options that take no value (without dashes).
    ///   - optionNames: options that take a value.
    init(_ arguments: [String], flags flagNames: Set<String>, options optionNames: Set<String>) throws {
        var index = 0
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" { onlyPositional = true; continue }
            var name = String(argument.drop(while: { $0 == "-" }))
            if name == "h" { name = "help" }
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            if flagNames.contains(name) || name == "help" {
                if inlineValue != nil { throw UsageError("--\(name) takes no value") }
                flags.insert(name)
            } else if optionNames.contains(name) {
                // `--name=value`, or the next argument.
                guard let value = inlineValue ?? (index < arguments.count ? arguments[index] : nil) else { throw UsageError("--\(name) needs a value") }
                if inlineValue == nil { index += 1 }
                options[name] = value
                allOptions[name, default: []].append(value)
            } else {
                throw UsageError("unknown option \(argument)")
            }
        }
    }
}
