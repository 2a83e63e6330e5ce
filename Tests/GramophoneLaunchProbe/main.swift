// A child process for LaunchEnvironmentTests: an "app" that calls
// `Turntable.installFromLaunchEnvironment()` first thing, as an app under UI test does, then
// fetches each URL given on the command line through `URLSession.shared` and prints
// `STATUS BODY` per line (or `ERROR code`). Not a product.
import Foundation
import Gramophone

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

do {
    let installed = try Turntable.installFromLaunchEnvironment()
    print(installed == nil ? "installed: no" : "installed: yes")
} catch {
    print("install failed: \(error)")
    exit(2)
}

for argument in CommandLine.arguments.dropFirst() {
    guard let url = URL(string: argument) else { continue }
    do {
        let (data, response) = try await URLSession.shared.data(from: url)
        print("\((response as? HTTPURLResponse)?.statusCode ?? 0) \(String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\n", with: " "))")
    } catch {
        print("ERROR \((error as NSError).code)")
    }
}
