import JSKit

/// A `requestAnimationFrame` callback with the place it was requested.
struct FrameCallback {
    let callback: JSValue
    let source: String
}

extension EventLoop {
    /// Frames are 60 Hz: frame n starts at floor(n * 1000 / 60) ms, so the timestamps scripts
    /// see (16, 33, 50, 66 ms...) never drift.
    public static let framesPerSecond: Int64 = 60

    /// The first frame boundary strictly after `time`.
    static func nextFrame(after time: VirtualTime) -> VirtualTime {
        var n = (time.microseconds * framesPerSecond) / 1_000_000
        while frameStart(n) <= time { n += 1 }
        return frameStart(n)
    }

    /// The start of frame `n`, floored to the microsecond.
    static func frameStart(_ n: Int64) -> VirtualTime {
        VirtualTime(microseconds: (n * 1_000_000) / framesPerSecond)
    }

    /// Queues an animation frame callback for `owner` and returns its id (unique per owner).
    /// The rendering update is scheduled only while callbacks are waiting, so an idle page costs
    /// nothing per frame.
    @discardableResult
    public func requestFrame(owner: Int, callback: JSValue, source: String) -> Int {
        let id = (nextFrameID[owner] ?? 0) + 1
        nextFrameID[owner] = id
        frameCallbacks[owner, default: []].append((id, FrameCallback(callback: callback, source: source)))
        scheduleFrameIfNeeded()
        return id
    }

    /// Queues a step of the next rendering update for `owner`, run after that frame's animation
    /// frame callbacks (HTML 8.1.7.3 "update the rendering": ResizeObserver observations come
    /// after the callbacks of `requestAnimationFrame`).
    public func requestRenderingStep(owner: Int, callback: JSValue, source: String) {
        renderingSteps[owner, default: []].append(FrameCallback(callback: callback, source: source))
        scheduleFrameIfNeeded()
    }

    private func scheduleFrameIfNeeded() {
        guard frameTask == nil, !frameCallbacks.isEmpty || !renderingSteps.isEmpty else { return }
        frameTask = schedule(at: Self.nextFrame(after: now), phase: .rendering, label: "animation frame") { [weak self] in
            self?.runFrame()
        }
    }

    /// Cancels an animation frame callback; unknown ids are ignored.
    public func cancelFrame(owner: Int, id: Int) {
        frameCallbacks[owner]?.removeAll { $0.id == id }
    }

    /// HTML 8.1.7.3 "run the animation frame callbacks": the callbacks waiting when the frame
    /// starts run with the frame's timestamp, each only if it is still waiting (an earlier callback
    /// may cancel it); callbacks requested during the frame wait for the next one.
    private func runFrame() {
        frameTask = nil
        let handles = frameCallbacks.keys.sorted().flatMap { owner in
            (frameCallbacks[owner] ?? []).map { (owner: owner, id: $0.id) }
        }
        for handle in handles {
            guard let index = frameCallbacks[handle.owner]?.firstIndex(where: { $0.id == handle.id }),
                  let entry = frameCallbacks[handle.owner]?.remove(at: index) else { continue }
            let callback = entry.callback.callback
            do {
                try callback.call([callback.context.number(frameTimestamp(owner: handle.owner))])
            } catch let error as JSError {
                errorHandler?(handle.owner, JSErrorReport(error: error, during: "animation frame callback \(entry.id) requested at \(entry.callback.source)"))
            } catch {
                errorHandler?(handle.owner, JSErrorReport(error: JSError(message: "\(error)"), during: "animation frame callback \(entry.id)"))
            }
        }
        // Then the rendering steps waiting when the callbacks are done; steps asked for during
        // them wait for the next frame.
        let steps = renderingSteps
        renderingSteps = [:]
        for owner in steps.keys.sorted() {
            for step in steps[owner] ?? [] {
                do {
                    try step.callback.call([step.callback.context.number(frameTimestamp(owner: owner))])
                } catch let error as JSError {
                    errorHandler?(owner, JSErrorReport(error: error, during: step.source))
                } catch {
                    errorHandler?(owner, JSErrorReport(error: JSError(message: "\(error)"), during: step.source))
                }
            }
        }
        frameCallbacks = frameCallbacks.filter { !$0.value.isEmpty }
        scheduleFrameIfNeeded()
    }

    /// The timestamp handed to frame callbacks: `performance.now()` of the owner at this frame.
    func frameTimestamp(owner: Int) -> Double {
        now.milliseconds - (frameTimeOrigins[owner] ?? 0)
    }
}
