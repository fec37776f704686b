fn main() {
    println!("Hello World!");
#
#     // You can even hide lines! :D
#     println!("I am hidden! Expand the code snippet to see me");
}
