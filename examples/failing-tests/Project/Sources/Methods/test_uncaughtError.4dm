//%attributes = {}
// An error no Catch takes: a test that errs, not one that fails.
throw(42; "the invoice service is down")
