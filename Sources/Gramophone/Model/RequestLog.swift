/// How many requests a log keeps (a Turntable's `playback.requests`, a stub's `requests`): a
/// benchmark replaying millions of times must not grow without bound; a test asserting what
/// was sent never gets near it. Every request is still counted.
enum RequestLog {
    static let limit = 10_000
}
