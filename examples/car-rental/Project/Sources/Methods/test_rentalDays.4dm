//%attributes = {}
// A rental's days count both ends; one that ends before it starts is refused.
ASSERT(ds.rentalDays(!2024-05-01!; !2024-05-04!)=4; "May 1 to May 4 is four days")
ASSERT(ds.rentalDays(!2024-05-01!; !2024-05-01!)=1; "a one-day rental")

var $refused : Boolean
Try
	ds.rentalDays(!2024-05-04!; !2024-05-01!)
Catch
	$refused:=(Last errors[0].message="The rental ends before it starts")
End try
ASSERT($refused; "a rental that ends before it starts is refused")
