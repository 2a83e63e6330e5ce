import Foundation

/// The lock every save of a vinyl takes, in this process and across processes: the parallel
/// cases of a parameterized test, two Turntables, two test processes (`swift test --parallel`)
/// recording into one vinyl each read the file, merge and write it under it, one at a time.
///
/// An exclusive `flock` on a hidden lock file beside the vinyl (`.NAME.lock`). `flock` locks
/// belong to the open file, so two opens in one process exclude each other too (a `fcntl`
/// lock would not). The holder removes the file before it lets go, so none is left beside the
/// vinyls; a waiter that then gets the lock of a removed file sees that the path now names
/// another file (or none) and tries again.
enum VinylLock {
    /// Runs `body` holding the lock of `file`, creating its folder when missing.
    /// - Throws: `VinylError(.unwritable)` when the lock file cannot be made; what `body` throws.
    static func withLock<T>(on file: URL, _ body: () throws -> T) throws -> T {
        let path = try AtomicFile.createFolder(of: file).appendingPathComponent(".\(file.lastPathComponent).lock").path
        let descriptor = try acquire(path, for: file)
        defer {
            unlink(path)
            close(descriptor)
        }
        return try body()
    }

    /// Opens and locks the lock file, until the lock held is that of the file at `path`.
    private static func acquire(_ path: String, for file: URL) throws -> Int32 {
        while true {
            let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw failure(file, path, errno) }
            var result: Int32
            repeat { result = flock(descriptor, LOCK_EX) } while result != 0 && errno == EINTR
            guard result == 0 else {
                let code = errno
                close(descriptor)
                throw failure(file, path, code)
            }
            // The previous holder may have removed the file between our open and our lock.
            var held = stat()
            var named = stat()
            if fstat(descriptor, &held) == 0, stat(path, &named) == 0, held.st_ino == named.st_ino, held.st_dev == named.st_dev {
                return descriptor
            }
            close(descriptor)
        }
    }

    private static func failure(_ file: URL, _ path: String, _ code: Int32) -> VinylError {
        VinylError(
            .unwritable, file: file.path, problem: "could not take the lock \(path) that saves of this vinyl share (\(String(cString: strerror(code))))",
            fix: "Check that the vinyl's folder is writable; the vinyl is unchanged and its recorded tracks are still pending")
    }
}
