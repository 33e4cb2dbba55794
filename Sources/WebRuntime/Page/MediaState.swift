/// What a media element reports, read from the harness side.
public struct MediaState: Equatable, Sendable {
    /// Playback position in seconds.
    public let currentTime: Double
    /// Duration in seconds (NaN until metadata is loaded).
    public let duration: Double
    /// Whether playback is paused.
    public let paused: Bool
    /// Whether playback reached the end.
    public let ended: Bool
    /// HTMLMediaElement readyState (0 HAVE_NOTHING … 4 HAVE_ENOUGH_DATA).
    public let readyState: Int
    /// Whether the element is muted.
    public let muted: Bool
    /// Volume, 0…1.
    public let volume: Double
    /// Playback rate.
    public let playbackRate: Double
    /// The resolved URL being played.
    public let currentSrc: String

    /// Field-wise equality in which two NaN durations (no metadata yet) are equal.
    public static func == (a: MediaState, b: MediaState) -> Bool {
        a.currentTime == b.currentTime && (a.duration == b.duration || (a.duration.isNaN && b.duration.isNaN))
            && a.paused == b.paused && a.ended == b.ended && a.readyState == b.readyState && a.muted == b.muted
            && a.volume == b.volume && a.playbackRate == b.playbackRate && a.currentSrc == b.currentSrc
    }
}
