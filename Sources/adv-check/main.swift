import ADVCheckKit
import Foundation

// Thin shell: parse in ADVCheck.run, print through CheckOutput, exit with its status.
exit(ADVCheck.run(Array(CommandLine.arguments.dropFirst()), output: CheckOutput(echo: true)))
