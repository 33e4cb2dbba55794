import Foundation
import HarnessCLI

// Thin shell: parse and run in HarnessCommand, exit with its status.
HarnessCommand.exit(HarnessCommand.run(Array(CommandLine.arguments.dropFirst())))
