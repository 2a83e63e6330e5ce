import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes files so that a crash or a failed write leaves the previous file untouched.
///
/// The bytes go to a temporary file beside the destination, are flushed to disk, and the
/// temporary file is renamed over the destination (rename is atomic within a folder).
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws {
        let path = url.path
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw VinylError(.unwritable, file: path, problem: "could not create the folder \(folder.path) (\((error as NSError).localizedDescription))",
                             fix: "Check that the path is writable, or choose another vinyl folder")
        }
        let temporary = folder.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
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
        if let writeError {
            close(descriptor)
            unlink(temporary)
            throw failure(path, writeError)
        }
        if fsync(descriptor) != 0 {
            let code = errno
            close(descriptor)
            unlink(temporary)
            throw failure(path, code)
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure(path, code)
        }
        // Make the rename itself durable.
        let folderDescriptor = open(folder.path, O_RDONLY)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    private static func failure(_ path: String, _ code: Int32) -> VinylError {
        let reason = String(cString: strerror(code))
        return VinylError(.unwritable, file: path, problem: "could not write the vinyl (\(reason))",
                          fix: "Check that the folder exists and is writable; the previous file, if any, is unchanged")
    }
}
