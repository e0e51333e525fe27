#DECLARE($a : Integer; $b : Integer) -> $r : Integer
// An integer division: by zero, 4D's error in this method, under the function that called it.
$r:=$a\$b
