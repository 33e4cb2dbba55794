import ADVCheckKit
import CommandLineKit
import Foundation

// Thin shell: parse and run in ADVCheck.run, print through CommandOutput, exit with its status.
exit(ADVCheck.run(Array(CommandLine.arguments.dropFirst()), output: .standard()))
