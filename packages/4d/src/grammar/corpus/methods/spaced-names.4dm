// Names with spaces that are neither 4D's tables nor tokenized. The project's own methods (this
// corpus passes "SEND REPORT" and "Tax for" as the project's methods) are called by name, with or
// without parentheses, in any case; inside a text, the name is only text.
SEND REPORT
SEND REPORT("weekly"; $recipients)
send report
$total:=$net+Tax for($net; "FR")
$rate:=Tax for
If (Tax for($amount)>100)
	SEND REPORT
End if 
$len:=Length("SEND REPORT")

// One of 4D's names that the tables do not list, written without its token: it parses, and
// the compiler names it (a constant without a value, or a call of what it cannot find).
WP EXPORT DOCUMENT($doc; $path; wk pdf)
$method:=HTTP PATCH method
$policy:=Some future command($x; 1)+1
$pair:=New collection(ck some option; $y)
