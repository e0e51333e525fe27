//%attributes = {}
// Not a test: code that cannot run outside 4D (a window), which entistore check reports.
SET WINDOW TITLE("Invoices")
