import Foundation

/// The commands, in the order `--help` lists them.
let commands: [any Command.Type] = [
    InspectCommand.self,
    ConvertCommand.self,
    LintCommand.self,
    ScanCommand.self,
    DiffCommand.self,
    VerifyCommand.self,
]

let topUsage = """
    gramophone: inspect, lint, convert and verify recorded HTTP traffic (vinyls).

    USAGE: gramophone COMMAND [ARGUMENTS]

    COMMANDS:
    \(commands.map { "  \($0.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \($0.summary)" }.joined(separator: "\n"))

    Run `gramophone COMMAND --help` for a command's options.
    Data goes to stdout, errors to stderr.
    EXIT CODES: 0 success, 1 bad input or problems found, 2 bad usage, 3 nothing checked (verify).
    """

@MainActor
func runCLI(_ argv: [String]) async -> ExitCode {
    guard let name = argv.first else {
        Output.err(topUsage)
        return .usage
    }
    if name == "--help" || name == "-h" || name == "help" {
        Output.out(topUsage)
        return .success
    }
    guard let command = commands.first(where: { $0.name == name }) else {
        Output.err("error: unknown command '\(name)'\n\n\(topUsage)")
        return .usage
    }
    do {
        let arguments = try Arguments(Array(argv.dropFirst()), flags: command.flags, options: command.options)
        if arguments.flags.contains("help") {
            Output.out(command.usage)
            return .success
        }
        if let operand = command.operand, arguments.positional.isEmpty { throw UsageError("\(command.name) needs at least one \(operand)") }
        return try await command.run(arguments)
    } catch {
        Output.err("error: \(error)\n\n\(command.usage)")
        return .usage
    }
}

exit(await runCLI(Array(CommandLine.arguments.dropFirst())).rawValue)
