Class extends DataClass

// A notice is seen from the day its embargo ends: the restrict reads the clock.
Function event restrict() -> $result : cs.NoticeSelection
	$result:=This.query("embargo <= :1"; Current date)
