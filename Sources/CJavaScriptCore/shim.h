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

// Exported by the library, declared in WebKit's private Source/JavaScriptCore/API/JSBasePrivate.h:
// a full, synchronous collection (JSGarbageCollect only hints that one would be welcome).
JS_EXPORT void JSSynchronousGarbageCollectForDebugging(JSContextRef ctx);

// Also from JSBasePrivate.h: an object describing the group's heap (heapSize, heapCapacity,
// extraMemorySize, objectCount, protectedObjectCount, globalObjectCount, ...).
JS_EXPORT JSObjectRef JSGetMemoryUsageStatistics(JSContextRef ctx);

#endif
