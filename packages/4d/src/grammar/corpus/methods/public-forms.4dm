// Forms found in public 4D projects that 4D's compiler accepts.
// A chain of calls with each call on a line of its own, after a `\`.
$staff:=ds.Employee\
.query("salary > :1"; 1000)\
  .orderBy("lastName asc")
// A local whose name starts with a digit.
var $4thJan : Date
$4thJan:=!2024-01-04!
$1stRow:=$staff.first()
// Block comments nest: the code below the inner comment stays commented out.
/* outer
  /* inner */
  $staff:=Null
*/
$mode:=(Application type=4D Local mode)
LOG EVENT(Into 4D debug message; "started"; Information message)
$file:=4D.File.new("/LOGS/x.txt")
