import Foundation
import RuleStore

// One process of the multi-process shared-file test:
// adv-rulefile-worker FILE WORKER OPERATIONS SEED
let arguments = CommandLine.arguments
guard arguments.count == 5, let worker = Int(arguments[2]), let operations = Int(arguments[3]),
      let seed = UInt64(arguments[4])
else {
    FileHandle.standardError.write(Data("usage: adv-rulefile-worker FILE WORKER OPERATIONS SEED\n".utf8))
    exit(2)
}
let file = SharedRuleFile(url: URL(fileURLWithPath: arguments[1]))
do {
    for (step, operation) in SharedFileStress.plan(worker: worker, operations: operations, seed: seed).enumerated() {
        try SharedFileStress.apply(operation, to: file, now: Int64(step + 1))
    }
} catch {
    FileHandle.standardError.write(Data("adv-rulefile-worker: error: \(error)\n".utf8))
    exit(1)
}
