import Foundation

/// Writes files so that a crash or a failed write leaves the previous file untouched.
///
/// The bytes go to a temporary file beside the destination, are flushed to disk, and the
/// temporary file is renamed over the destination (rename is atomic within a folder).
/// A writer killed before the rename leaves its temporary file; the next successful write of
/// the same file removes such leftovers once their writer is gone.
enum AtomicFile {
    /// How long a dead writer's temporary file is left alone: a writer in another PID namespace
    /// (a container sharing the folder) looks dead from here while it is still writing.
    static let staleAge: TimeInterval = 60

    static func write(_ data: Data, to url: URL) throws {
        let path = url.path
        let folder = try createFolder(of: url)
        // `.NAME.PID.UUID.tmp`: hidden, never a vinyl extension, and naming its writer.
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o644)
        guard descriptor >= 0 else { throw failure(path, errno) }
        var written = 0
        let count = data.count
        let writeError: Int32? = data.withUnsafeBytes { raw -> Int32? in
            while written < count {
                let result = Foundation.write(descriptor, raw.baseAddress! + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                written += result
            }
            return nil
        }
        // The first failure of the write, the flush or the rename names the cause.
        let flushError = writeError ?? (fsync(descriptor) == 0 ? nil : errno)
        close(descriptor)
        guard flushError == nil, rename(temporary, path) == 0 else {
            let code = flushError ?? errno
            unlink(temporary)
            throw failure(path, code)
        }
        // Make the rename itself durable.
        let folderDescriptor = open(folder.path, O_RDONLY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
        removeLeftovers(of: url.lastPathComponent, in: folder)
    }

    /// Creates the folder `file` goes in, with the folders above it; a failure is `.unwritable` for `file`.
    static func createFolder(of file: URL) throws -> URL {
        let folder = file.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw VinylError(
                .unwritable, file: file.path, problem: "could not create the folder \(folder.path) (\((error as NSError).localizedDescription))",
                fix: "Check that the path is writable, or choose another vinyl folder")
        }
        return folder
    }

    /// Deletes the temporary files of earlier writes of `name` whose writing process no longer
    /// exists and which have not changed for `staleAge`. Best effort: a failure here is not the
    /// write's failure.
    static func removeLeftovers(of name: String, in folder: URL, now: Date = Date()) {
        let prefix = ".\(name)."
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for entry in entries where entry.hasPrefix(prefix) && entry.hasSuffix(".tmp") {
            let middle = entry.dropFirst(prefix.count).dropLast(".tmp".count).split(separator: ".", omittingEmptySubsequences: false)
            guard middle.count == 2, let pid = Int32(middle[0]), pid > 0, UUID(uuidString: String(middle[1])) != nil,
                !isRunning(pid)
            else { continue }
            let path = folder.appendingPathComponent(entry).path
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: path))?[.modificationDate] as? Date,
                now.timeIntervalSince(modified) >= staleAge
            else { continue }
            unlink(path)
        }
    }

    private static func isRunning(_ pid: Int32) -> Bool {
        // EPERM means it exists but belongs to someone else.
        kill(pid, 0) == 0 || errno != ESRCH
    }

    private static func failure(_ path: String, _ code: Int32) -> VinylError {
        let reason = String(cString: strerror(code))
        return VinylError(
            .unwritable, file: path, problem: "could not write the vinyl (\(reason))",
            fix: "Check that the folder exists and is writable; the previous file, if any, is unchanged")
    }
}
