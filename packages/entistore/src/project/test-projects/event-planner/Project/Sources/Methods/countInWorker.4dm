// A job that answers through the signal its caller waits on.
#DECLARE($signal : 4D.Signal)
var jobs : Integer
Use ($signal)
	$signal.count:=ds.Event.all().length
	$signal.jobs:=jobs
End use
$signal.trigger()
