import JSKit

/// Driving `<video>` and `<audio>` from outside the page: scenario code plays, pauses and seeks
/// as the user (or the site's player) would, without running page script. Playback advances with
/// the virtual clock; run the session's loop to let time pass.
extension Page {
    /// Declares a media resource: loading `url` (resolved against the page) succeeds with
    /// `duration` seconds. Undeclared URLs load only when they carry `duration=<seconds>` in their
    /// query or fragment; others fail with MEDIA_ERR_SRC_NOT_SUPPORTED.
    /// - Throws: ``JSError`` when the page is closed.
    public func declareMedia(url: String, duration: Double) throws {
        try callWeb("media", "declare", [document, url, duration])
    }

    /// Starts playback of the first media element matching `selector` (a user pressing play).
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func playMedia(_ selector: String) throws {
        try callWeb("media", "play", [try element(selector)])
    }

    /// Pauses the first media element matching `selector`.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func pauseMedia(_ selector: String) throws {
        try callWeb("media", "pause", [try element(selector)])
    }

    /// Seeks the first media element matching `selector` to `seconds` (clamped to the duration).
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func seekMedia(_ selector: String, to seconds: Double) throws {
        try callWeb("media", "seek", [try element(selector), seconds])
    }

    /// Mutes or unmutes the first media element matching `selector`.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func setMediaMuted(_ selector: String, _ muted: Bool) throws {
        try callWeb("media", "setMuted", [try element(selector), muted])
    }

    /// The state of the first media element matching `selector`, now.
    /// - Throws: ``ElementNotFoundError`` or ``JSError``.
    public func mediaState(_ selector: String) throws -> MediaState {
        let s = try callWeb("media", "snapshot", [try element(selector)])
        return MediaState(
            currentTime: try s["currentTime"].toNumber(), duration: try s["duration"].toNumber(),
            paused: s["paused"].toBool, ended: s["ended"].toBool, readyState: Int(try s["readyState"].toNumber()),
            muted: s["muted"].toBool, volume: try s["volume"].toNumber(), playbackRate: try s["playbackRate"].toNumber(),
            currentSrc: try s["currentSrc"].toString())
    }
}
