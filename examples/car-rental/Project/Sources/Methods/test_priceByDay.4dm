//%attributes = {}
// Every seventh day of a rental is free.
var $prices : Collection
$prices:=ds.priceByDay(50; 8)
ASSERT($prices.length=8)
ASSERT($prices.sum()=350; "two weeks' price less the seventh day")
ASSERT($prices[6]=0; "the seventh day is free")
