#ifndef ADV_CJAVASCRIPTCORE_SHIM_H
#define ADV_CJAVASCRIPTCORE_SHIM_H

// The classic JavaScriptCore C API: the same header Apple ships in JavaScriptCore.framework.
#include <JavaScriptCore/JavaScript.h>

// Exported by libjavascriptcoregtk but declared only in the private header
// Source/JavaScriptCore/API/JSContextRefPrivate.h in WebKit. The signatures below match it.
typedef bool (*JSShouldTerminateCallback)(JSContextRef ctx, void *context);
JS_EXPORT void JSContextGroupSetExecutionTimeLimit(JSContextGroupRef group, double limit,
                                                   JSShouldTerminateCallback callback, void *context);
JS_EXPORT void JSContextGroupClearExecutionTimeLimit(JSContextGroupRef group);

// Also from JSContextRefPrivate.h: `function` is called with (promise, reason) for each promise
// of the context rejected with no handler by the time the microtask queue is empty.
JS_EXPORT void JSGlobalContextSetUnhandledRejectionCallback(JSGlobalContextRef ctx, JSObjectRef function,
                                                            JSValueRef *exception);

// From WebKit's private Source/JavaScriptCore/API/JSScriptRefPrivate.h, exported by the library: a
// script parsed once for a context group and evaluated in any of its contexts without being
// parsed again.
typedef struct OpaqueJSScript *JSScriptRef;
JS_EXPORT JSScriptRef JSScriptCreateFromString(JSContextGroupRef contextGroup, JSStringRef url, int startingLineNumber,
                                               JSStringRef source, JSStringRef *errorMessage, int *errorLine);
JS_EXPORT void JSScriptRelease(JSScriptRef script);
JS_EXPORT JSValueRef JSScriptEvaluate(JSContextRef ctx, JSScriptRef script, JSValueRef thisValue, JSValueRef *exception);

// Also from JSContextRefPrivate.h: turns `eval` and the `Function` constructor off (or on) in a
// realm; each then throws an EvalError with `message`, as a page whose Content Security Policy
// lacks 'unsafe-eval'.
JS_EXPORT void JSGlobalContextSetEvalEnabled(JSGlobalContextRef ctx, bool enabled, JSStringRef message);

// Exported by the library (and by the system framework since macOS 10.15), declared in WebKit's
// private Source/JavaScriptCore/API/JSObjectRefPrivate.h: the global context of the realm an
// object was made in.
JS_EXPORT JSGlobalContextRef JSObjectGetGlobalContext(JSObjectRef object);

// Also from JSObjectRefPrivate.h: a value an object made with a JSClass keeps under a name no
// script can see (traced by the collector like any property, so it needs no JSValueProtect).
JS_EXPORT bool JSObjectSetPrivateProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName, JSValueRef value);
JS_EXPORT JSValueRef JSObjectGetPrivateProperty(JSContextRef ctx, JSObjectRef object, JSStringRef propertyName);

// Exported by the library, declared in WebKit's private Source/JavaScriptCore/API/JSBasePrivate.h:
// a full, synchronous collection (JSGarbageCollect only hints that one would be welcome).
JS_EXPORT void JSSynchronousGarbageCollectForDebugging(JSContextRef ctx);

// Also from JSBasePrivate.h: an object describing the group's heap (heapSize, heapCapacity,
// extraMemorySize, objectCount, protectedObjectCount, globalObjectCount, ...).
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

// The host's calls into JavaScript on this thread: `depth` counts those running (a host function
// called from JavaScript that calls back in is one deeper); `started` is when the outermost one
// began, in CLOCK_MONOTONIC nanoseconds. Kept per thread, not per group object, because a
// context group is used by one thread at a time and a host callback may wrap the same group in
// a second Swift object. (ScriptWatchdog's per-call limit is measured from `started`.) Being
// static inline, each file that calls these has its own copy: JSKit calls them from one file.
#include <time.h>

typedef struct {
    unsigned long depth;
    unsigned long long started;
} ADVEntryState;

static inline ADVEntryState *_Nonnull adv_entry_state(void) {
    static _Thread_local ADVEntryState state;
    return &state;
}

static inline unsigned long long adv_monotonic_nanoseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (unsigned long long)now.tv_sec * 1000000000ull + (unsigned long long)now.tv_nsec;
}

static inline void adv_entry_begin(void) {
    ADVEntryState *state = adv_entry_state();
    if (state->depth++ == 0) state->started = adv_monotonic_nanoseconds();
}

static inline void adv_entry_end(void) {
    adv_entry_state()->depth--;
}

#endif
