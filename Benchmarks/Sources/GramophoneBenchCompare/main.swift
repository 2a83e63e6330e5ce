import Foundation

// GramophoneBenchCompare list           the names of its workloads, one a line
// GramophoneBenchCompare serve          reads "BUDGET_MS<TAB>NAME" lines on stdin; runs the named
//                                       workload for about BUDGET_MS (at least one operation, after
//                                       one warm-up call the first time) and answers one line:
//                                       "SECONDS_PER_OPERATION<TAB>OPERATIONS", or "error<TAB>WHY".
// GramophoneBenchCompare run NAME [MS]  the same for one workload, printed for a person.
// GramophoneBenchCompare count NAME N   one warm-up call, then exactly N operations: for
//                                       `valgrind --tool=callgrind`, whose instruction counts hold
//                                       on a busy machine (N = 0 gives what to subtract).
//
// scripts/bench-compare builds this target from one commit's benchmark sources against two
// commits' libraries and serves both binaries in turn, round by round.

let byName = Dictionary(allWorkloads.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
var warmed = Set<String>()

/// About `budget` seconds of `workload`; seconds per operation and the operations done.
@MainActor func measure(_ workload: Workload, budget: Double) async throws -> (Double, Int) {
    if !warmed.contains(workload.name) {
        _ = try await workload.run(workload.batch)
        warmed.insert(workload.name)
    }
    var seconds = 0.0
    var operations = 0
    repeat {
        seconds += try await workload.run(workload.batch)
        operations += workload.batch
    } while seconds < budget
    return (seconds / Double(operations), operations)
}

let arguments = Array(CommandLine.arguments.dropFirst())
switch arguments.first {
case "list":
    for workload in allWorkloads { print(workload.name) }
case "serve":
    // Each answer goes out at once (print buffers when stdout is a pipe).
    func answer(_ line: String) { FileHandle.standardOutput.write(Data((line.replacingOccurrences(of: "\n", with: " ") + "\n").utf8)) }
    while let line = readLine() {
        let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
        guard parts.count == 2, let milliseconds = Double(parts[0]), let workload = byName[parts[1]] else {
            answer("error\tno workload \(line)")
            continue
        }
        do {
            let (perOperation, operations) = try await measure(workload, budget: milliseconds / 1000)
            answer("\(perOperation)\t\(operations)")
        } catch {
            answer("error\t\(error)")
        }
    }
case "run":
    guard arguments.count >= 2, let workload = byName[arguments[1]] else {
        FileHandle.standardError.write(Data("run: no such workload; `list` names them\n".utf8))
        exit(2)
    }
    let budget = (arguments.count > 2 ? Double(arguments[2]) ?? 1000 : 1000) / 1000
    let (perOperation, operations) = try await measure(workload, budget: budget)
    print(String(format: "%@: %.3f µs per operation over %d", workload.name, perOperation * 1e6, operations))
case "count":
    guard arguments.count == 3, let workload = byName[arguments[1]], let count = Int(arguments[2]) else {
        FileHandle.standardError.write(Data("count: NAME N; `list` names the workloads\n".utf8))
        exit(2)
    }
    _ = try await workload.run(workload.batch)
    if count > 0 { _ = try await workload.run(count) }
default:
    FileHandle.standardError.write(Data("usage: GramophoneBenchCompare list | serve | run NAME [MS] | count NAME N\n".utf8))
    exit(2)
}
