"""Click commands: each turns library results and errors into output and exit codes."""
