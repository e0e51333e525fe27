// A formula whose body is an assignment: it runs when the formula is called and answers nothing.
var $o : Object:={count: 1; tags: {}}
var $set : 4D.Function:=Formula($o.count:=$1)
var $add : 4D.Function:=Formula($o.count+=$1)
var $tag : 4D.Function:=Formula($o.tags[$1]:=$2)
var $answer:=$set.call(Null; 10)
$add.call(Null; 5)
$tag.call(Null; "a"; True)
$tag.call(Null; "b"; False)
return {count: $o.count; tags: $o.tags; answer: $answer}
