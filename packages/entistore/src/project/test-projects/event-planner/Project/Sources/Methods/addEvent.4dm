// A job of the worker "planner": an event made, and the jobs counted in a process variable of
// the worker, which it keeps from job to job.
#DECLARE($title : Text)
var $event : cs.EventEntity
$event:=ds.Event.new()
$event.title:=$title
$event.save()
var jobs : Integer
jobs:=jobs+1
