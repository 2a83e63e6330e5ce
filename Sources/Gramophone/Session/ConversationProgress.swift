import Foundation

/// A replayed conversation whose code sent fewer messages than were recorded: the messages it
/// never sent are unplayed, as a track never requested is (`Playback.unfinishedConversations`).
public struct UnfinishedConversation: Sendable, Equatable {
    /// The conversation's track, by position in the vinyl.
    public internal(set) var track: Int
    /// The most client messages any replay of it sent.
    public internal(set) var sent: Int
    /// How many client messages the recording has.
    public internal(set) var recorded: Int

    /// The conversation on track `track`, replayed with `sent` of its `recorded` client messages
    /// (a snapshot the Turntable makes; tests compare against one).
    package init(track: Int, sent: Int, recorded: Int) {
        self.track = track
        self.sent = sent
        self.recorded = recorded
    }
}

extension Turntable.Deck {
    /// Notes that a replay of the conversation on track `index` has sent `count` messages.
    mutating func noteSent(_ count: Int, onTrack index: Int) {
        if count > conversationSends[index] ?? -1 { conversationSends[index] = count }
    }

    /// The conversations replayed short of their recorded client messages, by track position.
    var unfinishedConversations: [UnfinishedConversation] {
        conversationSends.keys.sorted().compactMap { index in
            guard let sent = conversationSends[index], index < self.index.tracks.count,
                let recorded = self.index.tracks[index].response?.conversation?.sent.count, sent < recorded
            else { return nil }
            return UnfinishedConversation(track: index, sent: sent, recorded: recorded)
        }
    }
}
