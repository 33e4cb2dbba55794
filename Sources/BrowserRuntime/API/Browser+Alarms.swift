import Foundation
import WebRuntime

/// One `alarms` alarm of an extension, on the virtual clock.
struct ScheduledAlarm {
    let name: String
    /// `Alarm.scheduledTime`: epoch milliseconds of the next firing, as the browser reports it.
    var scheduledTime: Double
    /// `Alarm.periodInMinutes` as given (absent for a one-shot alarm).
    let periodInMinutes: Double?
    /// How long between firings once it repeats (after the browser's minimum).
    let repeatInterval: VirtualTime?
    /// The pending firing.
    var task: TaskID?
}

extension Browser {
    /// The shortest delay and period either browser honours for a packed Manifest V3 extension:
    /// 30 seconds (Chromium's extensions/browser/api/alarms/alarms_api_constants.cc since Chrome
    /// 120; WebKit's webExtensionMinimumAlarmInterval since 2024).
    static let minimumAlarmInterval = VirtualTime.seconds(30)
    /// Chromium's AlarmManager::kMaxAlarmsPerExtension; WebKit has no limit.
    static let maximumAlarms = 500

    func handleAlarms(_ call: APICall) -> APIResult {
        let host = call.context.host
        let chromium = options.profile == .chromium
        /// The optional name argument (a JSON string), "" when absent.
        func name(_ index: Int) -> String { call.argument(index).map(JSONText.decodeString) ?? "" }
        switch call.method {
        case "create":
            // browser-api.js sent [name, info], checked as each browser's bindings check them.
            return createAlarm(host, name: name(0), info: JSONText.fields(call.argument(1)), from: call.context)
        case "get":
            guard let alarm = host.alarms[name(0)] else { return .undefined }
            return .json(alarmJSON(alarm))
        case "getAll":
            return .json(JSONText.array(host.alarms.keys.sorted().compactMap { host.alarms[$0].map(alarmJSON) }))
        case "clear":
            let removed = removeAlarm(host, name(0))
            // Chrome answers wasCleared; shipped Safari answers nothing (WebExtensionAPIAlarmsCocoa.mm).
            return chromium ? .json(removed ? "true" : "false") : .undefined
        case "clearAll":
            for alarm in host.alarms.keys.sorted() { _ = removeAlarm(host, alarm) }
            // Chromium's AlarmsClearAllFunction always answers true.
            return chromium ? .json("true") : .undefined
        default:
            return .error("alarms.\(call.method) is not available")
        }
    }

    /// Creates (or replaces, by name) an alarm. Chrome keeps the requested time and fires no
    /// sooner than the minimum, warning on the console when a delay or period is below it
    /// (alarms_api.cc); Safari clamps both to the minimum silently, and the clamped time is
    /// what `scheduledTime` says (WebExtensionAlarm.cpp). Safari accepts an alarm with no time
    /// at all (it fires once, after the minimum); Chrome refuses it.
    func createAlarm(_ host: ExtensionHost, name: String, info: [String: String], from context: ExtensionContext) -> APIResult {
        let chromium = options.profile == .chromium
        let number = { (key: String) -> Double? in info[key].flatMap(Double.init) }
        let when = number("when"), delay = number("delayInMinutes"), period = number("periodInMinutes")
        let now = loop.now
        let epochNow = options.session.epoch + now.milliseconds
        let minute = 60_000.0
        var firesAt: VirtualTime
        var scheduled: Double
        var repeatInterval: VirtualTime?
        if chromium {
            if host.alarms.count >= Self.maximumAlarms { return .error("An extension cannot have more than 500 active alarms.") }
            if when != nil, delay != nil { return .error("Cannot set both when and delayInMinutes.") }
            if when == nil, delay == nil, period == nil { return .error("Must set at least one of when, delayInMinutes, or periodInMinutes.") }
            let minimum = Self.minimumAlarmInterval.milliseconds
            for (value, word) in [(delay, "delay"), (period, "period")] {
                guard let value, value * minute < minimum else { continue }
                warn(context, "Alarm \(word) is less than the minimum duration of 30 seconds. Alarm \"\(name)\" will fire after the minimum duration.")
            }
            scheduled = when ?? (epochNow + (delay ?? period ?? 0) * minute)
            firesAt = max(VirtualTime.milliseconds(scheduled - options.session.epoch), now + Self.minimumAlarmInterval)
            if let period { repeatInterval = .milliseconds(max(period * minute, minimum)) }
        } else {
            // Zero counts as not given (WebKit tests each with `if`).
            var initial = 0.0
            if let when, when != 0 { initial = when - epochNow } else if let delay, delay != 0 { initial = delay * minute } else if let period, period != 0 { initial = period * minute }
            initial = max(initial, Self.minimumAlarmInterval.milliseconds)
            if let period, period != 0 { repeatInterval = .milliseconds(max(period * minute, Self.minimumAlarmInterval.milliseconds)) }
            firesAt = now + .milliseconds(initial)
            scheduled = (epochNow + initial).rounded(.down)
        }
        _ = removeAlarm(host, name)
        var alarm = ScheduledAlarm(name: name, scheduledTime: scheduled, periodInMinutes: period, repeatInterval: repeatInterval, task: nil)
        alarm.task = scheduleAlarm(host, name: name, at: firesAt)
        host.alarms[name] = alarm
        return .undefined
    }

    /// After a restart (Chrome keeps alarms): each fires at its time, or now when that passed
    /// while the browser was closed (a missed alarm fires once on startup).
    func rescheduleAlarms(_ host: ExtensionHost) {
        for name in host.alarms.keys.sorted() {
            guard var alarm = host.alarms[name] else { continue }
            alarm.task = scheduleAlarm(host, name: name, at: max(VirtualTime.milliseconds(alarm.scheduledTime - options.session.epoch), loop.now))
            host.alarms[name] = alarm
        }
    }

    private func scheduleAlarm(_ host: ExtensionHost, name: String, at time: VirtualTime) -> TaskID {
        loop.schedule(at: time, label: "alarm \(name)") { [weak self, weak host] in
            guard let self, let host else { return }
            self.fireAlarm(host, name: name)
        }
    }

    /// `alarms.onAlarm` in every extension page (waking a suspended background that listens),
    /// then the next firing of a repeating alarm: Chrome keeps its grid (scheduledTime plus
    /// the period), Safari counts from this firing.
    private func fireAlarm(_ host: ExtensionHost, name: String) {
        guard var alarm = host.alarms[name] else { return }
        trace.record(.api, at: "browser", "alarm \(JSONText.string(name)) fires")
        wakeIfNeeded(host, for: "alarms.onAlarm")
        let json = alarmJSON(alarm)
        for context in liveContexts(of: host) where context.kind.isPrivileged {
            context.dispatch("alarms.onAlarm", json: [json])
        }
        guard let interval = alarm.repeatInterval else {
            host.alarms[name] = nil
            return
        }
        if options.profile == .chromium, let period = alarm.periodInMinutes {
            alarm.scheduledTime += max(period * 60_000, interval.milliseconds)
        } else {
            alarm.scheduledTime = (options.session.epoch + (loop.now + interval).milliseconds).rounded(.down)
        }
        alarm.task = scheduleAlarm(host, name: name, at: loop.now + interval)
        host.alarms[name] = alarm
    }

    /// Drops the alarm named `name`; true when there was one.
    func removeAlarm(_ host: ExtensionHost, _ name: String) -> Bool {
        guard let alarm = host.alarms.removeValue(forKey: name) else { return false }
        if let task = alarm.task { loop.cancel(task) }
        return true
    }

    /// `alarms.Alarm`: name, scheduledTime, and periodInMinutes only when it repeats.
    func alarmJSON(_ alarm: ScheduledAlarm) -> String {
        var fields: [(String, String)] = [("name", JSONText.string(alarm.name)), ("scheduledTime", JSONText.number(alarm.scheduledTime))]
        if let period = alarm.periodInMinutes { fields.append(("periodInMinutes", JSONText.number(period))) }
        return JSONText.object(fields)
    }

    /// A warning on `context`'s console, as the browser logs one for a call it accepts.
    func warn(_ context: ExtensionContext, _ message: String) {
        _ = try? context.world.global["console"].invoke("warn", [context.world.context.string(message)])
    }
}
